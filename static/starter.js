// static/starter.js: the new table's "who starts" list (templates/_players_fields.html) names the players as
// their names are typed. Each option stands for a name field (its value is the field's number); a field
// left empty has no option, and a choice whose field is emptied goes back to "Chosen at random".
// Without JavaScript the list offers the fields by their own labels ("Player 3").
(function () {
  "use strict";

  function setUp(select) {
    var fields = select.form.querySelectorAll('input[name^="players-"]');

    function follow() {
      Array.prototype.forEach.call(select.options, function (option) {
        var field = fields[option.getAttribute("data-seat")];
        if (!field) return;
        var name = field.value.trim();
        option.textContent = name || option.getAttribute("data-label");
        option.hidden = option.disabled = !name;
      });
      if (select.selectedOptions.length === 0 || select.selectedOptions[0].disabled) select.value = "random";
      // A score sheet's team choices are labelled by the same names (templates/sheet/new.html).
      Array.prototype.forEach.call(select.form.querySelectorAll("[data-name-of]"), function (label) {
        var field = fields[label.getAttribute("data-name-of")];
        if (field) label.textContent = field.value.trim() || label.getAttribute("data-label");
      });
    }

    select.form.addEventListener("input", follow);
    // A page brought back by the back button keeps what was typed: its list follows that too.
    window.addEventListener("pageshow", follow);
    follow();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var lists = document.querySelectorAll("select[data-follows-names]");
    for (var i = 0; i < lists.length; i++) setUp(lists[i]);
  });
})();
