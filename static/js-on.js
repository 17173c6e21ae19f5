// static/js-on.js: the one script in <head>, before the page is drawn.
// Runs before the page is drawn: marks that JavaScript is on, so parts that
// only work with it (the bell's switches) take their place from the start
// instead of pushing the page down when the deferred scripts run.
document.documentElement.classList.add("js");
