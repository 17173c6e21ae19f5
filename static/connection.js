// static/connection.js: the page without a connection to the server.
// - Registers the service worker (static/sw.js), which keeps the memo card, an offline page in each
//   language and the last-seen copy of every page this phone opened.
// - While the server cannot be reached (the phone's Wi-Fi dropped, or the laptop serving the table
//   slept), or while the page is a kept copy (data-offline-copy on <html>, set by the worker), it says
//   so at the top of the page with the moment it last heard from the server, and the controls that
//   record something are disabled. The moment the server answers again, they come back and the
//   table catches up (the live region asks at once; a kept copy is loaded afresh).
// - A form sent just as the connection dropped says it was not recorded; sent again, its form key
//   makes it count once even if the first one did arrive.
// - Keeps the worker's copy of a table page up to what the phone shows (the table as last seen).
// The words are the server's, in the page's language (templates/layout.html: [data-offline-notice]).
(function () {
  "use strict";

  var root = document.documentElement;
  var copyOf = parseInt(root.getAttribute("data-offline-copy") || "", 10);
  var state = { offline: false, heardAt: copyOf > 0 ? copyOf : Date.now(), probe: 0, streamAt: 0 };

  // --- the service worker -------------------------------------------------------------------
  // Over plain HTTP on a home network a browser has no service worker (it needs HTTPS or
  // localhost): the pages then work as before, online.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", function () {
      var meta = document.querySelector('meta[name="companion-worker"]');
      if (!meta) return;
      var first = !navigator.serviceWorker.controller;
      navigator.serviceWorker.register(meta.content, { scope: "/" }).then(function () {
        return navigator.serviceWorker.ready;
      }).then(function (registration) {
        // The page the worker was installed from came before it: have it kept as well, so that the
        // table a phone opened once is there without a network.
        if (first && registration.active) registration.active.postMessage({ keep: window.location.href });
      }).catch(function () {});
    });
  }

  function notice() { return document.querySelector("[data-offline-notice]"); }
  function live() { return document.getElementById("live"); }

  function clock(ms) {
    try {
      return new Intl.DateTimeFormat(root.lang || undefined, { hour: "2-digit", minute: "2-digit" }).format(new Date(ms));
    } catch (error) {
      return new Date(ms).toTimeString().slice(0, 5);
    }
  }

  // --- the controls that record something --------------------------------------------------
  function recording(form) {
    return (form.getAttribute("method") || "").toLowerCase() === "post" || form.hasAttribute("hx-post");
  }
  function disableControls() {
    document.querySelectorAll("form").forEach(function (form) {
      if (!recording(form)) return;
      Array.prototype.forEach.call(form.elements, function (control) {
        if (control.disabled || control.type === "hidden") return;
        control.disabled = true;
        control.setAttribute("data-offline-off", "");
      });
    });
    document.querySelectorAll("[hx-post]:not(form):not([disabled])").forEach(function (control) {
      control.disabled = true;
      control.setAttribute("data-offline-off", "");
    });
  }
  function enableControls() {
    document.querySelectorAll("[data-offline-off]").forEach(function (control) {
      control.disabled = false;
      control.removeAttribute("data-offline-off");
    });
  }

  // --- offline and back -----------------------------------------------------------------------
  function showNotice() {
    var line = notice();
    if (!line) return;
    line.textContent = (line.getAttribute("data-text") || "Offline: {time}").replace("{time}", clock(state.heardAt));
    line.hidden = false;
  }

  function goOffline() {
    if (!state.offline) {
      state.offline = true;
      root.setAttribute("data-offline", "");
      disableControls();
    }
    showNotice();
    // Pages that do not poll ask the server now and then whether it is back.
    if (!live() && !state.probe) state.probe = window.setInterval(probe, 5000);
  }

  function unsentInput() {
    return !!document.querySelector("form[data-dirty], [data-unsent-notice]");
  }

  // The worker's offline page, shown for a page it kept no copy of.
  function offlinePage() { return !!document.querySelector("[data-kept-tables]"); }

  function goOnline() {
    state.heardAt = Date.now();
    if (!state.offline) return;
    if (offlinePage()) {
      // The page asked for, now that it can be had.
      window.location.reload();
      return;
    }
    if (copyOf > 0 && live() && !unsentInput()) {
      // A kept copy of a table: the whole page afresh (its bar, its forms' tokens, its stream).
      window.location.reload();
      return;
    }
    state.offline = false;
    root.removeAttribute("data-offline");
    var line = notice();
    if (line) line.hidden = true;
    enableControls();
    if (state.probe) { window.clearInterval(state.probe); state.probe = 0; }
    var region = live();
    if (region && window.htmx) window.htmx.trigger(region, "live-refresh");
  }

  function probe() {
    fetch(document.querySelector('link[rel="manifest"]').href, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) { if (response.ok) goOnline(); }, function () {});
  }

  // An answer from the server, whatever it says, is the connection working.
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status > 0) goOnline();
  });
  document.addEventListener("htmx:sseOpen", function (event) {
    var source = event.detail.source;
    var heard = function () { state.streamAt = Date.now(); goOnline(); };
    source.addEventListener("version", heard);
    source.addEventListener("region", heard);
    source.addEventListener("beat", heard);
  });
  function streamLost() { state.streamAt = 0; }
  document.addEventListener("htmx:sseError", streamLost);
  document.addEventListener("htmx:sseClose", streamLost);
  // The table's stream heard within three of its beats: the server is there, whatever one request did.
  function streamHeard() {
    var element = document.querySelector("[data-stream]");
    var beat = (element && parseFloat(element.getAttribute("data-beat"))) || 10;
    return state.streamAt > 0 && Date.now() - state.streamAt < 3 * beat * 1000;
  }

  // No answer at all: no connection (unless the stream still hears the server: one request lost on
  // the way is no reason to stop the table). A form among them says it was not recorded.
  function failed(event) {
    if (navigator.onLine === false || !streamHeard()) goOffline();
    var config = event.detail.requestConfig || {};
    var source = event.detail.elt;
    if (config.verb === "get" || !source) return;
    var form = source.tagName === "FORM" ? source : source.closest && source.closest("form");
    if (!form) return;
    // Still this player's unsent input: a catch-up keeps what it holds (its form key with it).
    form.setAttribute("data-dirty", "");
    // A previewed sale stays whole, its Record button with it (static/app.js: data-keep).
    if (form.sentWhole) form.setAttribute("data-keep", "");
    var words = notice();
    unsentLine(form, "alert", "unsent").textContent = (words && words.getAttribute("data-unsent")) || "Not recorded: send it again.";
  }

  // The line in a form (or a control's box) that says what became of what it sent: just above its buttons,
  // where the player tapped (a long form's top is out of sight), else at its top.
  // Not recorded (red, an alert), or to be sent again by the page itself (a plain notice: nothing to do).
  function unsentLine(holder, role, kind) {
    var line = holder.querySelector(":scope > [data-unsent-notice]");
    if (!line) {
      line = document.createElement("p");
      line.setAttribute("data-unsent-notice", "");
      holder.insertBefore(line, holder.querySelector(":scope > .form-buttons") || holder.firstChild);
    }
    line.className = "notice " + kind;
    line.setAttribute("role", role);
    return line;
  }
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);

  // A server behind (companion/server/serving.py) answers what it could not take in time with 503 and
  // Retry-After. A form says so and is sent again as it was, that long after (its key counts it once;
  // the player can send it sooner); a poll waits its next turn (static/app.js).
  function busy(event) {
    var xhr = event.detail.xhr;
    var config = event.detail.requestConfig || {};
    var source = event.detail.elt;
    // Only the server's own bend says when to come back: any other 503 is not sent again.
    var after = xhr && xhr.status === 503 ? parseInt(xhr.getResponseHeader("Retry-After") || "", 10) : NaN;
    if (isNaN(after) || config.verb === "get" || !source || !window.htmx) return;
    var seconds = Math.min(30, Math.max(1, after));
    var form = source.tagName === "FORM" ? source : source.closest && source.closest("form");
    var holder = form || source.parentNode;
    if (form) {
      form.setAttribute("data-dirty", "");
      if (form.sentWhole) form.setAttribute("data-keep", "");
    }
    var line = unsentLine(holder, "status", "busy");
    var words = notice();
    line.textContent = ((words && words.getAttribute("data-busy")) ||
      "The server is busy: sending it again in {seconds} s.").replace("{seconds}", String(seconds));
    window.setTimeout(function () {
      // Sent since by the player, or gone with a new region: nothing to send again.
      if (!document.body.contains(source) || (form && !form.hasAttribute("data-dirty"))) return;
      if (line.parentNode) line.remove();
      // Sent again as the player sent it: the form submitted with the same button (its values, its key,
      // boosted or not, htmx sends it as before), or the control clicked again.
      var trigger = config.triggeringEvent;
      if (form) {
        var submitter = trigger && trigger.submitter && form.contains(trigger.submitter) ? trigger.submitter : null;
        if (form.requestSubmit) form.requestSubmit(submitter || undefined); else window.htmx.trigger(form, "submit");
      } else {
        window.htmx.trigger(source, (trigger && trigger.type) || "click");
      }
    }, seconds * 1000 + Math.random() * 500);  // not every phone refused in one moment back in the same one
  }
  document.addEventListener("htmx:responseError", busy);

  window.addEventListener("offline", goOffline);
  window.addEventListener("online", function () {
    if (live()) return; // the live region's own ask (static/app.js) says whether the server is back
    probe();
  });

  // --- the table as last seen ------------------------------------------------------------------
  // The worker keeps a page as the network gave it; a table page then changes under the player's eyes
  // (the stream, the poll, this phone's own entries). A moment after each change the kept copy is
  // brought up to what the phone shows, so that without a network it opens the table as last seen,
  // this phone's own seat and all, at no cost to the server. Only a copy the worker made is updated:
  // its headers (the Content-Security-Policy with them) are the server's.
  var snapshotTimer = 0;
  function pagesCache() {
    var meta = document.querySelector('meta[name="companion-worker"]');
    var release = meta && /release=([0-9a-f]+)/.exec(meta.content);
    return release ? "companion-pages-" + release[1] : null;
  }
  // The page as shown, less what belongs to this moment only: htmx's classes of a request under
  // way, the stream's "heard" mark, notices and the marks of unsent input (typed values are no
  // attributes, so they are not kept).
  function shown() {
    var copy = root.cloneNode(true);
    copy.querySelectorAll("[data-notice], [data-unsent-notice]").forEach(function (element) { element.remove(); });
    ["data-up", "data-dirty", "data-keep"].forEach(function (name) {
      copy.querySelectorAll("[" + name + "]").forEach(function (element) { element.removeAttribute(name); });
    });
    copy.querySelectorAll("[class*=htmx-]").forEach(function (element) {
      element.className = element.className.replace(/\bhtmx-[a-z-]+/g, "").trim();
    });
    return copy;
  }

  function snapshot() {
    snapshotTimer = 0;
    var name = pagesCache();
    if (!name || !window.caches || state.offline || copyOf > 0 || !navigator.serviceWorker ||
        !navigator.serviceWorker.controller) return;
    var html = "<!doctype html>\n" + shown().outerHTML;
    var url = window.location.href.split("#")[0];
    caches.open(name).then(function (cache) {
      return cache.match(url, { ignoreVary: true }).then(function (kept) {
        if (!kept) return null;
        var headers = new Headers(kept.headers);
        headers.set("Date", new Date().toUTCString());
        headers.delete("Content-Length");
        headers.delete("Content-Encoding");
        return cache.put(url, new Response(html, { status: 200, headers: headers }));
      });
    }).catch(function () {});
  }
  document.addEventListener("htmx:afterSettle", function (event) {
    var region = live();
    if (!region || !(region === event.detail.elt || region.contains(event.detail.elt))) return;
    if (snapshotTimer) window.clearTimeout(snapshotTimer);
    snapshotTimer = window.setTimeout(snapshot, 1000);
  });

  function start() {
    if (copyOf > 0 || navigator.onLine === false || offlinePage()) goOffline();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
