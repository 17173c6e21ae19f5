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
    var line = form.querySelector(":scope > [data-unsent-notice]");
    if (!line) {
      line = document.createElement("p");
      line.className = "notice unsent";
      line.setAttribute("role", "alert");
      line.setAttribute("data-unsent-notice", "");
      form.insertBefore(line, form.firstChild);
    }
    var words = notice();
    line.textContent = (words && words.getAttribute("data-unsent")) || "Not recorded: send it again.";
  }
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);

  window.addEventListener("offline", goOffline);
  window.addEventListener("online", function () {
    if (live()) return; // the live region's own ask (static/app.js) says whether the server is back
    probe();
  });

  // --- the offline page: the tables this phone keeps -----------------------------------------
  function keptTables(list) {
    if (!window.caches) return;
    var word = list.getAttribute("data-word-table") || "Table";
    caches.keys().then(function (names) {
      var pages = names.filter(function (name) { return name.indexOf("companion-pages-") === 0; });
      return Promise.all(pages.map(function (name) {
        return caches.open(name).then(function (cache) {
          return cache.keys().then(function (requests) {
            return Promise.all(requests.filter(function (request) {
              return /^\/[tw]\/[^/]+$/.test(new URL(request.url).pathname);
            }).reverse().slice(0, 12).map(function (request) {
              return cache.match(request, { ignoreVary: true }).then(function (response) {
                return response.text().then(function (html) {
                  var title = /<title>([^<]*)<\/title>/.exec(html);
                  var text = document.createElement("textarea");
                  text.innerHTML = title ? title[1] : word;
                  return { url: request.url, title: text.value };
                });
              });
            }));
          });
        });
      }));
    }).then(function (found) {
      [].concat.apply([], found).forEach(function (table) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = table.url;
        link.textContent = table.title;
        item.appendChild(link);
        list.appendChild(item);
      });
    }).catch(function () {});
  }

  function start() {
    var list = document.querySelector("[data-kept-tables]");
    if (list) keptTables(list);
    if (copyOf > 0 || navigator.onLine === false || offlinePage()) goOffline();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
