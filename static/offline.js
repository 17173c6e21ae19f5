// static/offline.js: the offline page's list of the tables this phone keeps (templates/offline.html).
// The service worker (static/sw.js) shows that page for a page it has no copy of; each table page it
// keeps, as last seen, is one tap away from it. The list is read from the worker's caches: nothing here
// needs the server.
(function () {
  "use strict";

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
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
