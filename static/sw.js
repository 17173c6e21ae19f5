// The table companion's service worker, served at /sw.js so that it looks after the whole site
// (companion/views/installed.py). It is registered with the release in its address: its two caches
// are named by it, and a new release installs a new worker that deletes the old caches.
//
// - Static files (versioned addresses, never changed under them): from the cache, else the network.
// - Pages: from the network first, and each page the network gives is kept as its last-seen copy.
//   Without a network, that copy, marked data-offline-copy on <html> (with the moment it was
//   served), so the page says plainly it is not current (static/connection.js); no copy: the
//   offline page in the phone's language.
// - Anything else (a form being sent, the live region, the table's stream, a form's preview) is the
//   network's alone: never answered from a cache, and a POST is never touched.
"use strict";

var RELEASE = new URL(self.location.href).searchParams.get("release") || "0";
var FILES = "companion-files-" + RELEASE;
var PAGES = "companion-pages-" + RELEASE;
// The pages kept as last seen, newest kept: a phone's tables of the last evenings, not a whole history.
var KEPT_PAGES = 40;
var LANGUAGES = ["en", "fr", "de", "it"];
// The language of the last page the network gave: the offline page is shown in it.
var LANGUAGE_KEY = "/offline/language";

self.addEventListener("install", function (event) {
  event.waitUntil(
    fetch("/offline/files", { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("the list of files to keep: " + response.status);
        return response.json();
      })
      .then(function (kept) {
        return Promise.all([
          caches.open(FILES).then(function (cache) { return cache.addAll(kept.files); }),
          caches.open(PAGES).then(function (cache) { return cache.addAll(kept.pages); })
        ]);
      })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (name) {
          return name.indexOf("companion-") === 0 && name !== FILES && name !== PAGES;
        }).map(function (name) { return caches.delete(name); }));
      })
      // The page that registered this worker is looked after from now on, not from its next visit.
      .then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(file(request));
  }
});

// A page opened before this worker was there asks to be kept (static/connection.js).
self.addEventListener("message", function (event) {
  var url = event.data && event.data.keep;
  if (typeof url !== "string" || new URL(url).origin !== self.location.origin) return;
  var request = new Request(url, { credentials: "same-origin" });
  event.waitUntil(fetch(request).then(function (response) {
    if (isPage(response)) return keep(request, response);
  }).catch(function () {}));
});

// --- static files ---------------------------------------------------------------------------
function file(request) {
  return caches.match(request).then(function (kept) {
    if (kept) return kept;
    return fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(FILES).then(function (cache) { return cache.put(request, copy); });
      }
      return response;
    }, function (error) {
      // A page kept from before a release asks for its files' old versions: the current ones serve.
      return caches.match(request, { ignoreSearch: true }).then(function (any) {
        if (any) return any;
        throw error;
      });
    });
  });
}

// --- pages ----------------------------------------------------------------------------------
function isPage(response) {
  return response.status === 200 && (response.headers.get("Content-Type") || "").indexOf("text/html") === 0;
}

function page(request, url) {
  return fetch(request).then(function (response) {
    if (isPage(response)) keep(request, response.clone());
    return response;
  }, function () {
    return caches.open(PAGES).then(function (cache) {
      // A page is kept for this phone alone (its language, its seat): its Vary says nothing here.
      return cache.match(request, { ignoreVary: true }).then(function (kept) {
        // A memo card asked with its calculator's choices in the address: the kept card.
        return kept || cache.match(request, { ignoreSearch: true, ignoreVary: true });
      });
    }).then(function (kept) { return kept ? marked(kept) : offlinePage(); });
  });
}

function keep(request, response) {
  var language = response.headers.get("Content-Language");
  return caches.open(PAGES).then(function (cache) {
    // The language first: a page kept means its language is known.
    var spoken = language && LANGUAGES.indexOf(language) >= 0 ? cache.put(LANGUAGE_KEY, new Response(language)) : null;
    return Promise.resolve(spoken)
      .then(function () { return cache.delete(request, { ignoreVary: true }); })
      .then(function () { return cache.put(request, response); })
      .then(function () { return trim(cache); });
  });
}

// The oldest copies go first (a copy written again moves to the end: it is deleted, then put).
function trim(cache) {
  return cache.keys().then(function (requests) {
    var pages = requests.filter(function (kept) { return new URL(kept.url).pathname !== LANGUAGE_KEY; });
    return Promise.all(pages.slice(0, Math.max(0, pages.length - KEPT_PAGES)).map(function (old) {
      return cache.delete(old);
    }));
  });
}

// A kept copy says it is one: the moment the server gave it, on <html>, for the page's script.
function marked(kept) {
  var served = Date.parse(kept.headers.get("Date") || "") || 0;
  return kept.text().then(function (html) {
    var body = html.replace(/<html\b/i, '<html data-offline-copy="' + served + '"');
    var headers = new Headers();
    kept.headers.forEach(function (value, name) {
      // The body is already decoded and its length changed.
      if (!/^(content-encoding|content-length)$/i.test(name)) headers.set(name, value);
    });
    return new Response(body, { status: 200, headers: headers });
  });
}

// Before any page was kept: the first of the browser's languages the app speaks (as the server picks).
function browsersLanguage() {
  var wanted = (self.navigator && self.navigator.languages) || [];
  for (var i = 0; i < wanted.length; i++) {
    var primary = String(wanted[i]).split("-")[0].toLowerCase();
    if (LANGUAGES.indexOf(primary) >= 0) return primary;
  }
  return "en";
}

function offlinePage() {
  return caches.open(PAGES)
    .then(function (cache) { return cache.match(LANGUAGE_KEY, { ignoreVary: true }); })
    .then(function (language) { return language ? language.text() : browsersLanguage(); })
    .then(function (language) {
      return caches.match("/offline/" + (LANGUAGES.indexOf(language) >= 0 ? language : "en"), { ignoreVary: true });
    })
    .then(function (offline) {
      return offline || new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    });
}
