// static/calculator.js: the memo card's quick calculator without a connection.
// Online, the calculator is a GET form answered by the server (htmx swaps #calculator). Without a
// connection (the phone offline, the server out of reach, or a kept copy of the page) this script
// answers instead, from the data the server put in the page (#calculator-data,
// companion/views/memo.py: offline_calculator): every value the calculator can show, worked out by
// the rules, and its sentences in the page's language. It looks values up; it computes none.
(function () {
  "use strict";

  var data = null;
  function load() {
    if (data) return data;
    var element = document.getElementById("calculator-data");
    try { data = element ? JSON.parse(element.getAttribute("data-offline")) : null; } catch (error) { data = null; }
    return data;
  }

  function offline() {
    return navigator.onLine === false || document.documentElement.hasAttribute("data-offline") ||
      document.documentElement.hasAttribute("data-offline-copy");
  }
  function calculatorForm(element) {
    var section = element && element.closest ? element.closest("#calculator") : null;
    return section ? section.querySelector("form") : null;
  }

  // A sale's marks (companion/rules/carambouille/page_helpers.py: calculator_values).
  var RESTS_ON_RULING = 1, CANCELLED = 2;
  function ruling(node) { return (node[1] & RESTS_ON_RULING) !== 0; }

  function number(value) { return data.numbers[String(value)] || String(value); }
  function fill(template, value) { return template.replace("{value}", number(value)); }

  // --- what the form asks ---------------------------------------------------------------------
  function asked(form) {
    var product = form.elements.product.value;
    var cardsInput = form.querySelector("input[name=cards]:checked");
    var cards = cardsInput ? parseInt(cardsInput.value, 10) : null;
    var effects = [];
    form.querySelectorAll("select[name^=effects-]").forEach(function (select) {
      if (effects.length === parseInt(select.name.split("-")[1], 10) && select.value) effects.push(select.value);
    });
    return { product: data.faces[product] ? product : "", cards: cards, effects: effects };
  }

  // The sale after each card, as far as the cards asked are ones the calculator offers.
  function path(ask) {
    var face = data.faces[ask.product];
    var node = data.values[String(face)][ask.cards - 1];
    var nodes = [node];
    var effects = [];
    for (var i = 0; i < ask.effects.length; i++) {
      var next = node[2] && node[2][ask.effects[i]];
      if (!next) break;
      node = next;
      nodes.push(node);
      effects.push(ask.effects[i]);
    }
    return { nodes: nodes, effects: effects };
  }

  // --- drawing it as the server does (templates/carambouille/_calculator.html) -------------------
  function mark() {
    var fragment = document.createDocumentFragment();
    var sup = document.createElement("sup");
    sup.className = "ruling-mark";
    sup.setAttribute("aria-hidden", "true");
    sup.textContent = "*";
    var words = document.createElement("span");
    words.className = "vh";
    words.textContent = " " + data.words.ruling_mark;
    fragment.appendChild(sup);
    fragment.appendChild(words);
    return fragment;
  }

  function drawPills(form, ask) {
    form.querySelectorAll(".pill").forEach(function (pill) {
      var input = pill.querySelector("input[name=cards]");
      var old = pill.querySelector("small.v");
      if (old) old.remove();
      if (!ask.product) return;
      var node = data.values[String(data.faces[ask.product])][parseInt(input.value, 10) - 1];
      var small = document.createElement("small");
      small.className = "v" + (ruling(node) ? " unconfirmed" : "");
      small.textContent = number(node[0]);
      if (ruling(node)) small.appendChild(mark());
      pill.appendChild(small);
    });
  }

  function option(value, text, selected) {
    var element = document.createElement("option");
    element.value = value;
    element.textContent = text;
    element.selected = !!selected;
    return element;
  }

  function drawEffects(form, nodes, effects) {
    var fieldset = form.querySelector("fieldset.effects");
    if (!fieldset) return;
    fieldset.querySelectorAll("label, select").forEach(function (element) { element.remove(); });
    fieldset.removeAttribute("aria-invalid");
    var shown = effects.length + (nodes[nodes.length - 1][2] ? 1 : 0);
    for (var i = 0; i < shown; i++) {
      var label = document.createElement("label");
      label.htmlFor = "calc-effect-" + i;
      label.textContent = i === 0 ? data.words.first_card : data.words.then;
      var select = document.createElement("select");
      select.id = "calc-effect-" + i;
      select.name = "effects-" + i;
      select.appendChild(option("", i === 0 ? data.words.none : data.words.nothing_more, !effects[i]));
      Object.keys(nodes[i][2] || {}).forEach(function (card) {
        select.appendChild(option(card, data.cards[card].name, effects[i] === card));
      });
      fieldset.appendChild(label);
      fieldset.appendChild(select);
    }
  }

  function drawResult(section, ask, nodes, effects) {
    var result = section.querySelector(".calc-result");
    result.textContent = "";
    if (!ask.product || !ask.cards) {
      var hint = document.createElement("p");
      hint.className = "muted small-note";
      hint.textContent = data.words.hint;
      result.appendChild(hint);
      return;
    }
    var steps = document.createElement("ol");
    steps.className = "steps";
    nodes.forEach(function (node, i) {
      var item = document.createElement("li");
      if (ruling(node)) item.className = "unconfirmed";
      if (i === 0) item.textContent = fill(data.first[ask.product][ask.cards - 1], node[0]);
      else {
        var card = data.cards[effects[i - 1]];
        item.textContent = node[1] & CANCELLED ? card.cancelled : fill(card.then, node[0]);
      }
      if (ruling(node)) item.appendChild(mark());
      steps.appendChild(item);
    });
    result.appendChild(steps);
    var last = nodes[nodes.length - 1];
    var total = document.createElement("p");
    total.className = "sale-value";
    var parts = data.totals[String(last[0])].split("{points}");
    total.appendChild(document.createTextNode(parts[0]));
    var strong = document.createElement("strong");
    strong.textContent = number(last[0]);
    total.appendChild(strong);
    if (ruling(last)) total.appendChild(mark());
    total.appendChild(document.createTextNode(parts.slice(1).join("{points}")));
    result.appendChild(total);
    if (nodes.some(ruling)) {
      var note = document.createElement("p");
      note.className = "small-note ruling-note";
      note.textContent = "* " + data.words.ruling;
      result.appendChild(note);
    }
  }

  function answer(form) {
    if (!load()) return false;
    var section = form.closest("#calculator");
    var ask = asked(form);
    section.querySelectorAll(".error").forEach(function (error) { error.remove(); });
    form.querySelectorAll("[aria-invalid]").forEach(function (element) { element.removeAttribute("aria-invalid"); });
    drawPills(form, ask);
    var walked = ask.product && ask.cards ? path(ask) : { nodes: [[0, 0, null]], effects: [] };
    drawEffects(form, walked.nodes, walked.effects);
    drawResult(section, ask, walked.nodes, walked.effects);
    // The address keeps the question, as the server's answer does (hx-replace-url).
    var query = new URLSearchParams(new FormData(form)).toString();
    window.history.replaceState(window.history.state, "", form.getAttribute("action") + (query ? "?" + query : ""));
    return true;
  }

  // Without a connection the server is not asked; asked and unanswered, this script answers.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = calculatorForm(event.detail.elt);
    if (form && offline() && answer(form)) event.preventDefault();
  });
  function unanswered(event) {
    var form = calculatorForm(event.detail.elt);
    if (form) answer(form);
  }
  document.addEventListener("htmx:sendError", unanswered);
  document.addEventListener("htmx:timeout", unanswered);

  // A kept copy opened at an address with a question in it (?product=…&cards=…): the question answered.
  function start() {
    var form = calculatorForm(document.querySelector("#calculator form"));
    if (!form || !offline() || !window.location.search || !load()) return;
    var query = new URLSearchParams(window.location.search);
    if (form.elements.product && query.get("product")) form.elements.product.value = query.get("product");
    var cards = form.querySelector("input[name=cards][value='" + (parseInt(query.get("cards"), 10) || 0) + "']");
    if (cards) cards.checked = true;
    var effects = [];
    for (var i = 0; query.get("effects-" + i); i++) effects.push(query.get("effects-" + i));
    // The sale cards' selects are drawn for the path first, then chosen one by one.
    answer(form);
    effects.forEach(function (card, index) {
      var select = form.querySelector("select[name=effects-" + index + "]");
      if (!select) return;
      select.value = card;
      answer(form);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
