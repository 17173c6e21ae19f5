// The table companion's small script: the live region is morphed (idiomorph), never held back.
// What a player has typed or chosen but not sent stays as it is, with a one-line notice when the
// table changed under it. Everything works without it (plain forms, a Refresh link).
(function () {
  "use strict";

  var live = function () { return document.getElementById("live"); };
  // What the swap under way answers, set by htmx:beforeSwap for every answer that swaps and
  // cleared when its request ends (htmx:afterRequest comes after the swap, and for every answer:
  // a 204 or an error that swaps nothing, an aborted or failed request). "poll": the region's own
  // poll, under which open disclosures and unsent input are kept as they are. "preview": a form's
  // own preview, the truth for everything but the field the player is typing in. "answer": the
  // answer to the player's own post, the truth. Never left set by an answer that swapped nothing.
  var swapping = null;
  var polling = function () { return swapping === "poll"; };

  function seenIn(html) {
    var match = /id="live"[^>]*data-seen="(\d+)"/.exec(html || "");
    return match ? parseInt(match[1], 10) : null;
  }
  // The region of a session removed from the history (templates/tables/_removed.html): shown over any
  // table, and then nothing more is asked of it (it polls nothing; the stream is closed here).
  function removedIn(html) { return /id="live"[^>]*data-removed/.test(html || ""); }
  function stopAsking() {
    var element = document.querySelector("[data-stream]");
    if (!element) return;
    if (window.htmx) window.htmx.trigger(element, "htmx:beforeCleanupElement");
    element.remove();
  }

  // --- marking unsent input -------------------------------------------------------
  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("#live form");
    if (form) form.setAttribute("data-dirty", "");
  });
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("#live form");
    if (form) form.setAttribute("data-dirty", "");
  });
  // While this phone sends something, no poll runs: a poll sent before the answer could be drawn
  // for the phone as it was (before it chose its seat, say) and land after the answer.
  var sending = 0;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var region = live();
    var source = event.detail.elt;
    if (!region || !source) return;
    if (source === region) {
      if (sending > 0) event.preventDefault();
      return;
    }
    if (event.detail.requestConfig.verb === "get" || !region.contains(source)) return;
    sending += 1;
    // Counted down by the request itself: htmx's own events stop reaching the document when the
    // answer removes the form that sent it ("Who are you?"), and a phone must never stop polling.
    event.detail.xhr.addEventListener("loadend", function () { sending = Math.max(0, sending - 1); });
    window.htmx.trigger(region, "htmx:abort");
  });

  // A form being sent is no longer unsent input: the answer replaces it.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var source = event.detail.elt;
    if (!source || event.detail.requestConfig.verb === "get") return;
    var form = source.closest ? source.closest("form") : null;
    if (form) {
      // Noted for a send that never reaches the server: the form is then unsent input again (connection.js).
      form.sentWhole = form.hasAttribute("data-keep");
      form.removeAttribute("data-dirty");
      form.removeAttribute("data-keep");
    }
  });

  // --- the morph: keep what the player has not sent ---------------------------------
  function configure() {
    if (!window.Idiomorph) return;
    var callbacks = window.Idiomorph.defaults.callbacks;
    callbacks.beforeNodeMorphed = function (oldNode) {
      if (!polling() || oldNode.nodeType !== 1 || oldNode.id === "live") return true;
      // A confirm step or a previewed form (data-keep) stays whole, and so does a slot holding only that.
      if (oldNode.hasAttribute("data-keep")) return false;
      if (oldNode.children.length === 1 && oldNode.firstElementChild.hasAttribute("data-keep")) return false;
      return true;
    };
    callbacks.beforeAttributeUpdated = function (name, element, kind) {
      if (name === "data-dirty" && kind === "remove") return false;
      if (polling() && name === "open" && kind === "remove" && element.tagName === "DETAILS") return false;
      // A poll keeps what the player chose; the answer to the player's own request (a preview) is the truth.
      if (polling() && (name === "value" || name === "checked" || name === "selected") && element.closest &&
          element.closest("form[data-dirty]")) return false;
      // A preview asked for while the player types must not take back what was typed since.
      if (swapping === "preview" && name === "value" && element === document.activeElement &&
          element.tagName === "INPUT" && !/^(radio|checkbox|hidden|submit|button)$/.test(element.type)) return false;
      return true;
    };
    callbacks.beforeNodeRemoved = function (node) {
      // Its notices too: the table changed under it, or it was not recorded (static/connection.js).
      if (polling() && node.nodeType === 1 && (node.hasAttribute("data-notice") || node.hasAttribute("data-unsent-notice"))) return false;
      return true;
    };
  }

  // --- the notice: the table changed under unsent input ---------------------------
  function newestEntry(region) {
    var item = region.querySelector(".entries li");
    return item ? item.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function notice(region) {
    var what = newestEntry(region);
    region.querySelectorAll("form[data-dirty], form[data-keep], [data-keep] form").forEach(function (form) {
      var line = form.querySelector(":scope > [data-notice]");
      if (!line) {
        line = document.createElement("p");
        line.className = "notice";
        line.setAttribute("data-notice", "");
        line.setAttribute("role", "status");
        form.insertBefore(line, form.firstChild);
      }
      // Worded by the server in this phone's language (templates/tables/_live.html).
      line.textContent = what
        ? (region.getAttribute("data-notice-recorded") || "Just recorded: {entry} — check before you record.")
            .replace("{entry}", what.replace(/[.!]$/, ""))
        : region.getAttribute("data-notice-changed") || "The table changed — check before you record.";
    });
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    swapping = null;
    var target = event.detail.target;
    var config = event.detail.requestConfig || {};
    var source = config.elt;
    var region = live();
    if (target && region && target === region && source === region) {
      if (removedIn(event.detail.serverResponse)) {
        // Answered 404: the session is gone, and the page says so.
        event.detail.shouldSwap = true;
        event.detail.isError = false;
        // Replaced, not morphed: the new element carries no poll, and htmx forgets the old one's.
        event.detail.swapOverride = "outerHTML";
        swapping = "poll";
        return;
      }
      // A poll answered just before this phone's own entry landed must not put the older table back.
      var incoming = seenIn(event.detail.serverResponse);
      var current = parseInt(region.getAttribute("data-seen") || "0", 10);
      if (incoming !== null && incoming < current) event.detail.shouldSwap = false;
      region.changedUnderInput = event.detail.shouldSwap && incoming !== null && incoming > current &&
        !!region.querySelector("form[data-dirty], [data-keep]");
      if (event.detail.shouldSwap) swapping = "poll";
      return;
    }
    if (!event.detail.shouldSwap) return;
    swapping = config.verb === "get" && target && target.tagName === "FORM" ? "preview" : "answer";
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var region = live();
    if (region && region.hasAttribute("data-removed")) stopAsking();
    if (polling() && region && event.detail.target === region && region.changedUnderInput) notice(region);
    var config = event.detail.requestConfig || {};
    if (swapping === "answer" && config.verb !== "get" && region && region.contains(event.detail.target)) {
      passOn(region);
      focusTheMove(region);
    }
    // A preview brings its record button into sight: the player's next tap, not a scroll away.
    if (swapping === "preview") {
      var record = event.detail.target.querySelector("button[value=confirm]");
      if (record && record.getBoundingClientRect().bottom > window.innerHeight) record.scrollIntoView({ block: "nearest" });
    }
  });

  // --- a phone passed round the table -----------------------------------------------------
  // A phone of nobody that played for one player from its open "Play for …" keeps playing for whoever
  // is next: after its own tap is taken, the next player's buttons open (a refusal leaves them closed).
  var passingOn = false;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var source = event.detail.elt;
    if (!source || event.detail.requestConfig.verb === "get") return;
    passingOn = !!(source.closest && source.closest("details[data-pass-on][open]"));
  });
  function passOn(region) {
    if (!passingOn) return;
    passingOn = false;
    var next = region.querySelector("details[data-pass-on]");
    if (next && !region.querySelector("[role=alert]")) next.open = true;
  }

  // --- focus where the player is ---------------------------------------------------------
  // After this phone's own entry (or its refusal) the control it used is often gone: focus goes to
  // what the player reads or does next, never to the page body (a keyboard or screen-reader player
  // would start again from the top). A refusal: its first sentence's field. Else the first control
  // of this phone's move (marked data-move by the game's template), else the newest entry.
  var CONTROLS = "button:not([disabled]), select:not([disabled]), input[type=radio]:not([disabled]), summary";
  // Visible to the player: not inside a closed disclosure, not display:none.
  function shown(element) {
    if (element.checkVisibility) return element.checkVisibility();
    return element.offsetParent !== null && !element.closest("details:not([open]) > :not(summary)");
  }
  function focusTheMove(region) {
    var active = document.activeElement;
    if (active && active !== document.body && region.contains(active) && shown(active)) return;
    var target = region.querySelector("[aria-invalid=true]:not(fieldset), fieldset[aria-invalid=true] input");
    if (!target) {
      var move = region.querySelector("details[data-pass-on][open] [data-move], details[data-pass-on][open] form") ||
        region.querySelector("[data-move]");
      target = move && move.querySelector(CONTROLS);
    }
    if (!target) {
      target = region.querySelector(".recent-entries .entries li");
      if (target) target.setAttribute("tabindex", "-1");
    }
    if (target && target.focus) target.focus({ preventScroll: true });
  }

  // Every request ends here, whatever its answer: nothing about one swap outlives it.
  document.addEventListener("htmx:afterRequest", function () { swapping = null; });
  document.addEventListener("htmx:swapError", function () { swapping = null; });

  // --- asking at once when the phone wakes or the Wi-Fi comes back ---------------------
  function refresh() {
    var region = live();
    if (region && document.visibilityState === "visible" && window.htmx) window.htmx.trigger(region, "live-refresh");
  }
  document.addEventListener("visibilitychange", refresh);
  window.addEventListener("online", refresh);
  window.addEventListener("pageshow", function (event) { if (event.persisted) refresh(); });

  // --- the stream: this phone's region the moment the table changes (companion/live/streams.py) --
  // htmx's SSE extension holds the page's stream ([data-stream]); on it the server says the table's
  // version when it (re)connects, sends this phone's own region whenever an entry is recorded
  // (companion/live/pushes.py: rendered for this phone's seat, never another's), and beats every few
  // seconds with the version it last sent. A phone that hears of a version it does not show asks for
  // its region (the same request as its poll). While beats come, the one-second poll asks only every
  // data-safety seconds, as a safety net; without a stream (a proxy that buffers it, no EventSource,
  // a server that holds none) the page polls as before.
  var stream = { heardAt: 0, wanted: 0, askedAt: 0, retries: 0 };
  function streamSetting(name, fallback) {
    var element = document.querySelector("[data-stream]");
    var value = element && parseFloat(element.getAttribute(name));
    return value > 0 ? value * 1000 : fallback;
  }
  function streamUp() {
    // Three missed beats and the stream counts as lost: the poll is back at once.
    return Date.now() - stream.heardAt < 3 * streamSetting("data-beat", 10000);
  }
  function shownVersion(region) { return parseInt(region.getAttribute("data-seen") || "0", 10); }
  // Ask for the region if the stream said of a version this phone does not show yet.
  function catchUp() {
    var region = live();
    if (!region || !window.htmx || sending > 0) return;
    if (stream.wanted > shownVersion(region)) window.htmx.trigger(region, "live-refresh");
  }
  // The stream's element says whether it is heard (data-up): for the curious and for the tests.
  function heard(up) {
    stream.heardAt = up ? Date.now() : 0;
    var element = document.querySelector("[data-stream]");
    if (element) element.toggleAttribute("data-up", up);
  }
  // A region pushed on the stream (companion/live/pushes.py): this phone's own, as its poll would have
  // answered it, morphed in the same way (unsent input kept, the notice said). Not while this phone is
  // sending: the answer to its own post is the truth, and an older region never goes back over a newer one.
  function pushed(message) {
    var region = live();
    var incoming = seenIn(message.data);
    if (region && window.htmx && removedIn(message.data)) {
      window.htmx.swap(region, message.data, { swapStyle: "outerHTML" });
      stopAsking();
      return;
    }
    if (incoming === null || !region || !window.htmx) return;
    stream.wanted = Math.max(stream.wanted, incoming);
    if (sending > 0 || incoming <= shownVersion(region)) return;
    region.changedUnderInput = !!region.querySelector("form[data-dirty], [data-keep]");
    swapping = "poll";
    try {
      // The region's own element as the context: its hx-ext gives the morph.
      window.htmx.swap(region, message.data, { swapStyle: "morph" },
        { contextElement: region, eventInfo: { target: region, elt: region, requestConfig: { elt: region } } });
    } finally {
      swapping = null;
    }
    region = live();
    if (region && region.changedUnderInput) notice(region);
  }
  document.addEventListener("htmx:sseOpen", function (event) {
    var source = event.detail.source;
    source.addEventListener("version", function (message) {
      heard(true);
      stream.wanted = parseInt(message.data, 10) || 0;
      stream.retries = 0;
      catchUp();
    });
    source.addEventListener("region", function (message) {
      heard(true);
      stream.retries = 0;
      pushed(message);
    });
    // A beat says the version this stream last told: one this phone does not show was missed (asked for now).
    source.addEventListener("beat", function (message) {
      heard(true);
      var told = parseInt(message.data, 10) || 0;
      if (told > stream.wanted) {
        stream.wanted = told;
        catchUp();
      }
    });
  });
  // A phone that said who holds it (or that nobody does) reads another seat's region from now on: its
  // stream was opened for the seat it held, so it is opened again, for the new one.
  document.addEventListener("htmx:afterRequest", function (event) {
    var config = event.detail.requestConfig || {};
    var xhr = event.detail.xhr;
    if (config.verb !== "post" || !/\/seat$/.test(config.path || "") || !xhr || xhr.status !== 200) return;
    var element = document.querySelector("[data-stream]");
    if (!element || !window.htmx) return;
    window.htmx.trigger(element, "htmx:beforeCleanupElement");
    var fresh = element.cloneNode(false);
    element.replaceWith(fresh);
    window.htmx.process(fresh);
  });
  document.addEventListener("htmx:sseError", function () { heard(false); });
  document.addEventListener("htmx:sseClose", function () { heard(false); });
  // The poll's own tick (no triggering event) waits while the stream is up, up to the safety net.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var region = live();
    if (!region || event.detail.elt !== region) return;
    if (!event.detail.requestConfig.triggeringEvent && streamUp() &&
        Date.now() - stream.askedAt < streamSetting("data-safety", 15000)) event.preventDefault();
  });
  document.addEventListener("htmx:beforeSend", function (event) {
    if (event.detail.elt === live()) stream.askedAt = Date.now();
  });
  // A version heard while this phone was sending, or an answer older than it (a server whose read of
  // the table lags the stream by a moment): ask again shortly, a few times at most.
  document.addEventListener("htmx:afterRequest", function (event) {
    var region = live();
    if (!region || stream.wanted <= shownVersion(region)) { stream.retries = 0; return; }
    if (event.detail.elt !== region) { window.setTimeout(catchUp, 0); return; }
    // A server behind said when to come back (503, Retry-After: companion/server/serving.py): not sooner.
    var xhr = event.detail.xhr;
    var after = xhr && xhr.status === 503 ?
      (parseInt(xhr.getResponseHeader("Retry-After") || "", 10) || 2) * 1000 + Math.random() * 500 : 0;
    if (stream.retries < 10) {
      stream.retries += 1;
      window.setTimeout(catchUp, Math.max(after, 100 * stream.retries));
    }
  });

  // The poll asks with the version this phone shows, read when it asks (the region is morphed, not replaced).
  document.addEventListener("htmx:configRequest", function (event) {
    var region = live();
    if (region && event.detail.elt === region) event.detail.parameters.seen = region.getAttribute("data-seen") || "0";
  });

  document.addEventListener("click", function (event) {
    var keep = event.target.closest && event.target.closest("[data-cancel]");
    if (keep) {
      event.preventDefault();
      var box = keep.closest("[data-keep]");
      if (box) box.remove();
    }
  });

  // --- "swipe sideways": said only where a table does not fit its box (templates/_table_scroll.html) ---
  // Asked again whenever a table may have changed size: the window, a swapped region, a box opened.
  function markOverflow() {
    var boxes = document.querySelectorAll("[data-scroll-hint]");
    for (var i = 0; i < boxes.length; i++) {
      var scroller = boxes[i].querySelector(".overflow-auto");
      var overflows = scroller && scroller.scrollWidth > scroller.clientWidth + 1;
      boxes[i].toggleAttribute("data-overflows", !!overflows);
      if (!scroller) continue;
      // A box that scrolls is reached by the keyboard too (its arrow keys scroll it), named by its hint.
      if (overflows) {
        scroller.setAttribute("tabindex", "0");
        scroller.setAttribute("role", "region");
        var hint = boxes[i].querySelector(".scroll-hint");
        if (hint) scroller.setAttribute("aria-label", hint.textContent.trim());
      } else {
        scroller.removeAttribute("tabindex");
        scroller.removeAttribute("role");
        scroller.removeAttribute("aria-label");
      }
    }
  }
  window.addEventListener("resize", markOverflow);
  document.addEventListener("htmx:afterSettle", markOverflow);
  document.addEventListener("toggle", markOverflow, true);

  // idiomorph is loaded after this script (deferred, in page order): configure it once all are in.
  document.addEventListener("DOMContentLoaded", configure);
  document.addEventListener("DOMContentLoaded", markOverflow);
})();
