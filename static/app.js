// The table companion's small script: keeps the live region from swapping
// under a thumb that is filling in a form. Everything works without it.
(function () {
  "use strict";

  // A form left half-filled for this long no longer holds back the table.
  var PATIENCE_MS = 45000;
  var lastTouch = 0;

  function busy(live) {
    // A form the player has started, or a confirm step that is open, must not vanish.
    if (live.querySelector("form[data-dirty], [data-keep]") && Date.now() - lastTouch < PATIENCE_MS) return true;
    var active = document.activeElement;
    return !!(active && live.contains(active) && active.matches("input:not([type=hidden]):not([type=radio]):not([type=checkbox]), select, textarea"));
  }

  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("#live form");
    if (form) form.setAttribute("data-dirty", "");
  });

  ["input", "click", "focusin"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      if (event.target.closest && event.target.closest("#live form")) lastTouch = Date.now();
    });
  });

  function seenIn(html) {
    var match = /id="live"[^>]*data-seen="(\d+)"/.exec(html || "");
    return match ? parseInt(match[1], 10) : null;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "live") return;
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    // A poll answered just before this phone's own entry landed must not
    // put the older table back over the newer one.
    var incoming = seenIn(event.detail.serverResponse);
    var current = parseInt(target.getAttribute("data-seen") || "0", 10);
    if (incoming !== null && incoming < current) {
      event.detail.shouldSwap = false;
      return;
    }
    // Only the poll is held back; the player's own submissions always show.
    if (source === target && busy(target)) {
      event.detail.shouldSwap = false;
      return;
    }
    if (source === target) reopen = openDisclosures(target);
  });

  // A disclosure a player opened ("End the game now…") stays open when the
  // poll brings a newer table; it is found again by its summary's words.
  var reopen = null;

  function summaryOf(details) {
    var summary = details.querySelector("summary");
    return details.id || (summary ? summary.textContent.trim() : "");
  }

  function openDisclosures(live) {
    return Array.prototype.map.call(live.querySelectorAll("details[open]"), summaryOf);
  }

  document.addEventListener("htmx:afterSwap", function () {
    if (!reopen) return;
    var live = document.getElementById("live");
    var wanted = reopen;
    reopen = null;
    if (!live) return;
    live.querySelectorAll("details:not([open])").forEach(function (details) {
      if (wanted.indexOf(summaryOf(details)) !== -1) details.open = true;
    });
  });

  document.addEventListener("click", function (event) {
    var keep = event.target.closest && event.target.closest("[data-cancel]");
    if (keep) {
      event.preventDefault();
      var box = keep.closest("[data-keep]");
      if (box) box.remove();
    }
  });
})();
