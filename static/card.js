// static/card.js: the result as a picture (PNG, 1080 px wide) to share in a group chat.
// Drawn on this phone from what the results page shows: the words the server wrote into data-card
// (in the reader's language) and the page's own score chart, with its colours, lines and markers.
// Light on dark or dark on light as the phone prefers. Where the phone can share files (Web Share
// API level 2) the button hands the picture to the chat app; elsewhere it downloads it.
(function () {
  "use strict";

  var WIDTH = 1080;
  var PAD = 64;
  var ROW = 84;

  function colours() {
    var dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
    return dark
      ? { background: "#13171f", text: "#edf0f3", muted: "#a8b0ba", rule: "#2f3640", first: "#23303d", accent: "#f0c04d" }
      : { background: "#ffffff", text: "#1b1f24", muted: "#5b6470", rule: "#dde2e7", first: "#eef5fb", accent: "#a86b00" };
  }

  // The page's chart as a picture: each element carries the styles the page's CSS gives it, since a
  // picture of an SVG does not read the page's style sheets. They go in as SVG presentation attributes
  // (fill="…", stroke="…"), never a style attribute, which the page's Content-Security-Policy refuses.
  var STYLED = ["stroke", "stroke-width", "stroke-dasharray", "stroke-linecap", "stroke-linejoin", "fill",
    "opacity", "font-family", "font-size", "font-weight", "text-anchor", "dominant-baseline"];
  function picture(svg) {
    return new Promise(function (resolve) {
      if (!svg) { resolve(null); return; }
      var copy = svg.cloneNode(true);
      var from = svg.querySelectorAll("*");
      var to = copy.querySelectorAll("*");
      for (var i = 0; i < from.length; i++) {
        var style = window.getComputedStyle(from[i]);
        for (var j = 0; j < STYLED.length; j++) {
          to[i].setAttribute(STYLED[j], style.getPropertyValue(STYLED[j]));
        }
      }
      copy.querySelectorAll("title, desc").forEach(function (node) { node.remove(); });
      var box = svg.viewBox.baseVal;
      copy.setAttribute("width", box.width * 3);
      copy.setAttribute("height", box.height * 3);
      var image = new Image();
      image.onload = function () { resolve(image); };
      image.onerror = function () { resolve(null); };
      image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(new XMLSerializer().serializeToString(copy));
    });
  }

  function fitted(context, text, width) {
    if (context.measureText(text).width <= width) return text;
    while (text.length > 1 && context.measureText(text + "…").width > width) text = text.slice(0, -1);
    return text + "…";
  }

  function draw(card, chart, samples) {
    var c = colours();
    var font = window.getComputedStyle(document.body).fontFamily || "sans-serif";
    var chartHeight = chart ? Math.round((WIDTH - 2 * PAD) * chart.height / chart.width) : 0;
    var height = PAD + 70 + 56 + 40 + 60 + card.standings.length * ROW + (chart ? 40 + chartHeight : 0) + 40 + 40 + PAD;
    var canvas = document.createElement("canvas");
    canvas.width = WIDTH;
    canvas.height = height;
    var x = canvas.getContext("2d");
    x.fillStyle = c.background;
    x.fillRect(0, 0, WIDTH, height);
    x.textBaseline = "alphabetic";

    var y = PAD + 60;
    x.fillStyle = c.text;
    x.font = "700 64px " + font;
    x.fillText(fitted(x, card.game, WIDTH - 2 * PAD), PAD, y);
    y += 56;
    x.fillStyle = c.muted;
    x.font = "32px " + font;
    x.fillText(fitted(x, card.when, WIDTH - 2 * PAD), PAD, y);
    y += 40 + 50;
    x.fillStyle = c.text;
    x.font = "700 40px " + font;
    x.fillText(card.heading, PAD, y);
    y += 22;

    card.standings.forEach(function (place) {
      if (place.winner) {
        x.fillStyle = c.first;
        x.fillRect(PAD - 16, y, WIDTH - 2 * PAD + 32, ROW);
      }
      x.fillStyle = c.rule;
      x.fillRect(PAD - 16, y + ROW - 2, WIDTH - 2 * PAD + 32, 2);
      var base = y + ROW / 2 + 16;
      x.fillStyle = c.muted;
      x.font = "700 44px " + font;
      x.fillText(String(place.rank), PAD, base);
      x.font = "500 30px " + font;
      var unit = place.unit;
      var scoreWidth = x.measureText(unit).width;
      x.textAlign = "right";
      x.fillText(unit, WIDTH - PAD, base);
      x.fillStyle = c.text;
      x.font = "700 46px " + font;
      x.fillText(place.score, WIDTH - PAD - scoreWidth - 14, base);
      scoreWidth += x.measureText(place.score).width + 14;
      x.textAlign = "left";
      var nameLeft = PAD + 72;
      var sample = samples[place.name];
      if (sample) {
        // The legend's 44 × 12 sample, drawn 88 × 24 before the name.
        x.drawImage(sample, nameLeft, base - 26, 88, 24);
        nameLeft += 104;
      }
      var room = WIDTH - PAD - scoreWidth - 32 - nameLeft;
      x.font = (place.winner ? "700 " : "400 ") + "44px " + font;
      var mark = place.winner ? "  ★ " + card.winner : "";
      var name = fitted(x, place.name, room - (mark ? x.measureText(mark).width : 0));
      x.fillText(name, nameLeft, base);
      if (mark) {
        var after = nameLeft + x.measureText(name).width;
        x.fillStyle = c.accent;
        x.font = "700 32px " + font;
        x.fillText(mark, after, base);
      }
      y += ROW;
    });

    if (chart) {
      y += 40;
      x.drawImage(chart.picture, PAD, y, WIDTH - 2 * PAD, chartHeight);
      y += chartHeight;
    }
    y += 40 + 30;
    x.fillStyle = c.muted;
    x.font = "28px " + font;
    x.textAlign = "right";
    x.fillText(card.app, WIDTH - PAD, y);
    return canvas;
  }

  // The picture as a PNG file, with how long it took (for the curious and for the tests: data-made-ms).
  function make(box) {
    var started = performance.now();
    var card = JSON.parse(box.getAttribute("data-card"));
    var svg = document.querySelector("svg.chart");
    // Each player's line as the chart's legend draws it (colour, dash, marker), to stand by their name.
    var items = Array.prototype.slice.call(document.querySelectorAll(".chart-legend li"));
    var samples = {};
    return Promise.all(items.map(function (item) {
      var name = item.querySelector("span");
      return picture(item.querySelector("svg")).then(function (image) {
        if (image && name) samples[name.textContent] = image;
      });
    })).then(function () {
      return picture(svg);
    }).then(function (image) {
      var size = svg && svg.viewBox.baseVal;
      var canvas = draw(card, image ? { picture: image, width: size.width, height: size.height } : null, samples);
      return new Promise(function (resolve, reject) {
        canvas.toBlob(function (blob) {
          if (!blob) { reject(new Error("no picture")); return; }
          box.setAttribute("data-made-ms", String(Math.round(performance.now() - started)));
          box.setAttribute("data-bytes", String(blob.size));
          resolve(new File([blob], card.file, { type: "image/png" }));
        }, "image/png");
      });
    });
  }

  function canShare(file) {
    return !!(navigator.canShare && navigator.share && navigator.canShare({ files: [file] }));
  }

  function download(file) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(file);
    link.download = file.name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    window.setTimeout(function () { URL.revokeObjectURL(link.href); }, 10000);
  }

  function setUp(box) {
    var button = box.querySelector("[data-share-card]");
    var failed = box.querySelector("[data-card-failed]");
    var probe = new File([new Blob([""], { type: "image/png" })], "probe.png", { type: "image/png" });
    button.textContent = button.getAttribute(canShare(probe) ? "data-share" : "data-download");
    button.addEventListener("click", function () {
      button.setAttribute("aria-busy", "true");
      failed.hidden = true;
      make(box).then(function (file) {
        if (canShare(file)) {
          return navigator.share({ files: [file], title: file.name }).catch(function (error) {
            // Closing the share sheet is no failure; anything else still gets the picture to the player.
            if (!error || error.name !== "AbortError") download(file);
          });
        }
        download(file);
      }).catch(function () {
        failed.hidden = false;
      }).then(function () {
        button.removeAttribute("aria-busy");
      });
    });
    box.hidden = false;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var boxes = document.querySelectorAll("[data-card]");
    for (var i = 0; i < boxes.length; i++) setUp(boxes[i]);
  });
})();
