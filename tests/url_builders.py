"""Each app a test makes builds the same hundred URL rules again, and Werkzeug writes each rule's URL builder as
Python source and compiles it: nine tenths of ``create_app``'s 100 ms, and a test suite makes thousands of apps.

The builder's code depends only on the rule's text, its parts, its defaults and their converters, so the tests
compile each once per process (``share``). The app is not changed: only how often the same code is compiled.
A Werkzeug whose rules no longer have ``_compile_builder`` fails the run at once (``share`` raises).
"""

from __future__ import annotations

from werkzeug.routing.rules import Rule

_compile = Rule._compile_builder
_compiled: dict[tuple, object] = {}


def _key(rule: Rule, append_unknown: bool) -> tuple:
    defaults = sorted((str(name), repr(value)) for name, value in (rule.defaults or {}).items())
    # A converter's settings, but the map it belongs to (each app's own).
    converters = sorted((name, type(converter).__qualname__,
                         repr(sorted((key, value) for key, value in vars(converter).items() if key != "map")))
                        for name, converter in rule._converters.items())
    return rule.rule, tuple(rule._trace), tuple(defaults), tuple(converters), append_unknown


def _shared(rule: Rule, append_unknown: bool = True):
    key = _key(rule, append_unknown)
    if (builder := _compiled.get(key)) is None:
        builder = _compiled[key] = _compile(rule, append_unknown)
    return builder


def share() -> None:
    """Compile each URL builder once per process, for every app made after."""
    if not callable(_compile) or not hasattr(Rule, "_trace") and not hasattr(Rule("/"), "rule"):
        raise RuntimeError("Werkzeug's Rule has changed: tests/url_builders.py must follow it")
    Rule._compile_builder = _shared
