// static/players.js: the new table's names of earlier tables (templates/new_table.html), tapped in.
// A name goes to the first free seat; tapped again, it leaves its seat (a mis-tap is undone the same
// way). A name already typed, in any case or accent, counts as taken: the server matches names so.
(function () {
  "use strict";

  // As companion.inputs.names.key: case, accents and spaces do not make another player.
  function key(name) {
    return (name || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().split(/\s+/).join(" ").trim();
  }

  function setUp(box) {
    var form = box.closest("form");
    var seats = Array.prototype.slice.call(form.querySelectorAll('input[name^="players-"]'));
    var chips = Array.prototype.slice.call(box.querySelectorAll("[data-known-name]"));

    function seatOf(name) {
      var wanted = key(name);
      return seats.filter(function (seat) { return key(seat.value) === wanted; })[0] || null;
    }
    function mark() {
      chips.forEach(function (chip) {
        chip.setAttribute("aria-pressed", seatOf(chip.getAttribute("data-known-name")) ? "true" : "false");
      });
    }

    box.addEventListener("click", function (event) {
      var chip = event.target.closest("[data-known-name]");
      if (!chip) return;
      var name = chip.getAttribute("data-known-name");
      var taken = seatOf(name);
      if (taken) {
        taken.value = "";
      } else {
        var free = seats.filter(function (seat) { return !seat.value.trim(); })[0];
        if (!free) return;
        free.value = name;
      }
      // As typing does: the "who starts" list follows (static/starter.js).
      (taken || free).dispatchEvent(new Event("input", { bubbles: true }));
    });
    form.addEventListener("input", mark);  // a tap is told as an input too (above)
    box.hidden = false;
    mark();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var boxes = document.querySelectorAll("[data-known-players]");
    for (var i = 0; i < boxes.length; i++) setUp(boxes[i]);
  });
})();
