// The bell: every phone at the table rings at the same moment.
// The server names each ring (its entry number) and the moment it rings
// (its server time + 1.2 s); this script measures how far this phone's clock
// is from the server's (X-Server-Time on every answer) and rings then:
// a synthesized bell (Web Audio), a full-screen flash, a vibration.
// Without it, the ring buttons are plain forms and still record the ring.
(function () {
  "use strict";

  var controls = document.querySelector("[data-bell-controls]");
  if (!controls) return;
  var STALE_MS = 15000; // a ring that old when a poll brings it is history, not news
  var STALE_ON_LOAD_MS = 3000; // a page opened after the ring does not ring it again
  var table = controls.getAttribute("data-bell-table") || "";
  var keys = { enabled: "bell-enabled:" + table, rung: "bell-rung:" + table, wake: "bell-wake:" + table };
  var flashBox = document.querySelector("[data-bell-flash]");
  var announcer = document.querySelector("[data-bell-announce]");

  function stored(area, key, value) {
    // Private modes may refuse storage: the bell still rings, it only forgets sooner.
    try {
      if (value === undefined) return window[area].getItem(key);
      if (value === null) window[area].removeItem(key); else window[area].setItem(key, value);
    } catch (error) { return null; }
    return null;
  }

  // --- the server's clock: offset = server time - this phone's time --------
  var samples = [];
  var offset = 0;

  function sample(serverMs, sent, received) {
    if (!(serverMs > 0) || !(received >= sent)) return;
    samples.push({ offset: serverMs - (sent + received) / 2, rtt: received - sent });
    if (samples.length > 12) samples.shift();
    // The quickest answer's midpoint is the closest to when the server read its clock.
    var best = samples[0];
    samples.forEach(function (s) { if (s.rtt < best.rtt) best = s; });
    offset = best.offset;
  }

  function serverNow() { return Date.now() + offset; }

  (function firstSample() {
    var bell = document.getElementById("bell");
    var serverMs = bell && Number(bell.getAttribute("data-server-now"));
    var nav = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    if (!serverMs) return;
    if (nav && nav.responseStart > 0) {
      sample(serverMs, performance.timeOrigin + nav.requestStart, performance.timeOrigin + nav.responseStart);
    } else {
      sample(serverMs, Date.now(), Date.now());
    }
  })();

  document.addEventListener("htmx:beforeSend", function (event) {
    event.detail.xhr.bellSent = Date.now();
  });
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.bellSent) sample(Number(xhr.getResponseHeader("X-Server-Time")), xhr.bellSent, Date.now());
  });

  // --- the sound ------------------------------------------------------------
  var audio = null;
  var PARTIALS = [[1, 0.5, 1.6], [2.41, 0.22, 0.9], [3.93, 0.12, 0.5], [5.4, 0.06, 0.3]]; // ratio, gain, decay (s)

  function enabled() { return stored("localStorage", keys.enabled) !== "0"; }

  function unlock() {
    if (!enabled()) return null;
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume();
    return audio;
  }

  function strike(when, pitch, loudness) {
    if (!audio || audio.state !== "running") return;
    PARTIALS.forEach(function (partial) {
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = pitch * partial[0];
      gain.gain.setValueAtTime(0.0001, when);
      gain.gain.exponentialRampToValueAtTime(partial[1] * loudness, when + 0.004);
      gain.gain.exponentialRampToValueAtTime(0.0001, when + partial[2]);
      tone.connect(gain);
      gain.connect(audio.destination);
      tone.start(when);
      tone.stop(when + partial[2] + 0.05);
    });
  }

  function dingADing() {
    if (!unlock() || audio.state !== "running") return;
    var t = audio.currentTime + 0.01;
    strike(t, 1568, 1); // Ding
    strike(t + 0.18, 1318, 0.7); // -a-
    strike(t + 0.36, 1568, 1); // Ding!
  }

  // --- ringing ----------------------------------------------------------------
  var rung = {};
  (JSON.parse(stored("sessionStorage", keys.rung) || "[]") || []).forEach(function (id) { rung[id] = true; });
  var pending = {};

  function remember(id) {
    rung[id] = true;
    var ids = Object.keys(rung).slice(-40);
    stored("sessionStorage", keys.rung, JSON.stringify(ids));
  }

  function flash(className, ms) {
    if (!flashBox) return;
    flashBox.classList.remove("is-ringing", "is-warning");
    void flashBox.offsetWidth; // restart the animation
    flashBox.classList.add(className);
    window.setTimeout(function () { flashBox.classList.remove(className); }, ms);
  }

  function ring(id) {
    delete pending[id];
    if (rung[id]) return;
    remember(id);
    document.body.dataset.lastRing = id;
    document.body.dataset.rungAt = String(Date.now());
    flash("is-ringing", 1600);
    if (enabled()) {
      dingADing();
      if (navigator.vibrate) navigator.vibrate([180, 90, 180, 90, 360]);
    }
    if (announcer) announcer.textContent = (announcer.getAttribute("data-word-ding") || "Ding-a-Ding!") + " " + new Date().toLocaleTimeString(document.documentElement.lang || undefined);
    bringIntoSight();
  }

  // A phone scrolled down to the pad sees the market open or close: the bell's panel comes into sight,
  // unless the player is typing or choosing in a form (their place is kept, the flash and sound say it).
  function bringIntoSight() {
    var bell = document.getElementById("bell");
    var active = document.activeElement;
    if (!bell || (active && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName))) return;
    if (document.querySelector("#live form[data-dirty]")) return;
    var box = bell.getBoundingClientRect();
    if (box.bottom < 0 || box.top > window.innerHeight) bell.scrollIntoView({ block: "nearest" });
  }

  function consider(id, at, stale) {
    if (!id || !(at > 0) || rung[id] || pending[id]) return;
    var wait = at - serverNow();
    if (wait < -(stale || STALE_MS)) { remember(id); return; }
    pending[id] = window.setTimeout(function () { ring(id); }, Math.max(0, wait));
  }

  function considerBell(bell, stale) {
    if (bell) consider(bell.getAttribute("data-ring-id"), Number(bell.getAttribute("data-ring-at")), stale);
  }

  // The poll's answer may be held back (a form being filled in): read the ring from it anyway.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var text = event.detail.serverResponse || "";
    var id = /data-ring-id="(\d+)"/.exec(text);
    var at = /data-ring-at="(\d+)"/.exec(text);
    if (id && at) consider(id[1], Number(at[1]));
  });

  // --- the open market's clock, the fixed time's countdown --------------------
  var ticking = null;
  var warned = {};

  function face(ms) {
    var seconds = Math.max(0, Math.floor(ms / 1000));
    var rest = seconds % 60;
    return Math.floor(seconds / 60) + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function tick() {
    var bell = document.getElementById("bell");
    var since = bell && Number(bell.getAttribute("data-open-since"));
    if (!since) { window.clearInterval(ticking); ticking = null; return; }
    var now = serverNow();
    var clock = bell.querySelector("[data-bell-clock]");
    if (clock) clock.textContent = face(now - since);
    var deadline = Number(bell.getAttribute("data-deadline"));
    var countdown = bell.querySelector("[data-bell-countdown]");
    if (deadline && countdown) {
      countdown.hidden = false;
      // Rounded up, and never more than the fixed time before the ring itself.
      // Worded by the server in this phone's language (templates/bell/_bell.html).
      countdown.textContent = now < deadline
        ? (bell.getAttribute("data-closes-in") || "Closes in {clock}").replace("{clock}", face(Math.min(deadline - now + 999, deadline - since)))
        : bell.getAttribute("data-closing") || "Closing…";
      var warning = Number(bell.getAttribute("data-warning"));
      var late = now >= warning;
      bell.classList.toggle("is-warning", late);
      var id = bell.getAttribute("data-ring-id");
      if (late && now < deadline && !warned[id]) {
        warned[id] = true;
        flash("is-warning", 900);
        if (enabled() && unlock() && audio.state === "running") strike(audio.currentTime + 0.01, 880, 0.35);
        if (enabled() && navigator.vibrate) navigator.vibrate(120);
      }
    }
  }

  function guard(bell) {
    // The close button takes the open button's place: a double tap must not close the market at once.
    var at = Number(bell.getAttribute("data-ring-at"));
    var wait = at - serverNow();
    if (!(wait > 0)) return;
    bell.querySelectorAll("[data-bell-guard]").forEach(function (button) {
      button.disabled = true;
      window.setTimeout(function () { button.disabled = false; }, wait);
    });
  }

  function refresh(stale) {
    var bell = document.getElementById("bell");
    if (!bell) return;
    considerBell(bell, stale);
    guard(bell);
    bell.querySelectorAll("[data-bell-hold]").forEach(function (button) { button.hidden = false; });
    if (bell.getAttribute("data-open-since") && !ticking) ticking = window.setInterval(tick, 250);
    tick();
  }

  document.addEventListener("htmx:afterSettle", function () { refresh(); });

  // --- hold or tap to keep ringing (this phone) --------------------------------
  var holding = null;

  function stopHolding() { if (holding) { window.clearInterval(holding); holding = null; } }

  document.addEventListener("pointerdown", function (event) {
    unlock();
    var button = event.target.closest && event.target.closest("[data-bell-hold], [data-bell-ring]");
    if (!button || button.disabled || !audio || audio.state !== "running") return;
    stopHolding();
    strike(audio.currentTime + 0.01, 1568, 0.8);
    holding = window.setInterval(function () { strike(audio.currentTime + 0.01, 1568, 0.8); }, 260);
  }, true);
  ["pointerup", "pointercancel", "blur"].forEach(function (name) {
    (name === "blur" ? window : document).addEventListener(name, stopHolding, true);
  });
  document.addEventListener("keydown", function (event) {
    var hold = event.target.closest && event.target.closest("[data-bell-hold]");
    if (hold && (event.key === "Enter" || event.key === " ") && unlock() && audio.state === "running") {
      strike(audio.currentTime + 0.01, 1568, 0.8);
    }
  });

  // --- the bell on this phone, keeping the screen on --------------------------------
  // The bell is on unless this phone turned it off; browsers let a page make sound only after a tap
  // on it, so the first tap anywhere (choosing a seat, say) wakes the sound, over HTTP as over HTTPS.
  var enableButton = controls.querySelector("[data-bell-enable]");
  var disableButton = controls.querySelector("[data-bell-disable]");
  var enabledRow = controls.querySelector("[data-bell-enabled]");
  var disabledRow = controls.querySelector("[data-bell-disabled]");
  var words = controls.querySelector("[data-bell-words]");
  var stateLabel = controls.querySelector("[data-bell-state]");
  var wakeBox = controls.querySelector("[data-bell-wake]");
  var wakeNote = controls.querySelector("[data-bell-wake-note]");
  // What this script says, worded by the server in this phone's language (templates/bell/_controls.html).
  function word(name) { return controls.getAttribute("data-word-" + name) || ""; }

  function showState() {
    var on = enabled();
    var heard = on && audio && audio.state === "running";
    enabledRow.hidden = !on;
    disabledRow.hidden = on;
    stateLabel.textContent = word(on ? "on" : "off");
    words.textContent = word(heard ? "heard" : "unheard");
  }

  document.addEventListener("pointerdown", function () { window.setTimeout(showState, 50); }, true);

  enableButton.addEventListener("click", function () {
    stored("localStorage", keys.enabled, null);
    if (unlock()) audio.resume().then(function () { showState(); dingADing(); });
    if (navigator.vibrate) navigator.vibrate(60);
    showState();
    disableButton.focus();
  });
  disableButton.addEventListener("click", function () {
    stored("localStorage", keys.enabled, "0");
    showState();
    enableButton.focus();
  });

  // The Screen Wake Lock API exists only in secure contexts (HTTPS, or this computer itself). On a
  // home network over plain HTTP, nosleep.js keeps the screen on with a silent video instead; it may
  // only start from a tap.
  var wakeLock = null;
  var noSleep = null;
  var native = "wakeLock" in navigator && window.isSecureContext;

  function say(text) {
    wakeNote.textContent = text;
    wakeNote.hidden = !text;
  }

  function keepAwake() {
    if (!native || !wakeBox.checked || document.visibilityState !== "visible" || wakeLock) return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      say("");
      lock.addEventListener("release", function () { wakeLock = null; });
    }, function () {
      wakeLock = null;
      say(word("wake-refused"));
    });
  }

  function loadNoSleep(then) {
    if (window.NoSleep) { then(); return; }
    var script = document.createElement("script");
    script.src = controls.getAttribute("data-nosleep-src");
    script.onload = then;
    script.onerror = function () { say(word("wake-failed")); };
    document.head.appendChild(script);
  }

  function videoAwake() {
    if (!wakeBox.checked || (noSleep && noSleep.isEnabled)) return;
    if (!window.NoSleep) return;
    if (!noSleep) noSleep = new window.NoSleep();
    var started = noSleep.enable();
    if (started && started.then) {
      started.then(function () {
        say(word("wake-video"));
      }, function () {
        say(word("wake-impossible"));
      });
    }
  }

  wakeBox.checked = stored("localStorage", keys.wake) !== "0";
  wakeBox.addEventListener("change", function () {
    stored("localStorage", keys.wake, wakeBox.checked ? null : "0");
    if (native) {
      if (wakeBox.checked) keepAwake(); else if (wakeLock) wakeLock.release();
    } else if (wakeBox.checked) {
      videoAwake();
    } else if (noSleep) {
      noSleep.disable();
      say("");
    }
  });
  if (native) {
    // The browser lets go of the lock whenever the page is hidden: take it back.
    document.addEventListener("visibilitychange", keepAwake);
    keepAwake();
  } else {
    say(word("wake-tap"));
    loadNoSleep(function () {
      // The video may only start from a tap; any tap on the page will do.
      ["click", "touchend"].forEach(function (name) { document.addEventListener(name, videoAwake, true); });
    });
  }

  controls.hidden = false;
  showState();
  refresh(STALE_ON_LOAD_MS);
})();
