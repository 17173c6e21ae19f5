"""The catalogs stay whole: every message of the source is in every language, translated, not fuzzy,
with the placeholders of its source and no others (companion/i18n/catalogs.py)."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog, Message

from companion.i18n import catalogs
from companion.i18n import LANGUAGES

SOURCE = catalogs.source()


def test_every_language_of_the_app_has_a_catalog_and_no_other():
    assert catalogs.languages() == sorted(LANGUAGES)


def test_the_source_is_read_from_the_code_and_the_templates():
    files = {filename.split("/")[0] for message in SOURCE for filename, _ in message.locations}
    assert files == {"companion", "templates"}
    assert "Language" in SOURCE  # the switch at the foot of every page


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_catalog_is_whole(language):
    assert catalogs.problems(language, SOURCE) == []


def catalog_with(message: Message) -> Catalog:
    catalog = Catalog(locale="fr")
    catalog[message.id] = message
    return catalog


@pytest.mark.parametrize("source, translation, problems", [
    ("Record", "", ["not translated"]),
    ("%(name)s sells first", "%(name)s vend en premier", []),
    ("%(name)s sells first", "%(nom)s vend en premier",
     ["placeholder %(name)s is missing", "placeholder %(nom)s is not in the source"]),
    ("%(name)s sells first", "Vend en premier", ["placeholder %(name)s is missing"]),
    ("%(points)d points", "%(points)s points",
     ["placeholder %(points)d is missing", "placeholder %(points)s is not in the source"]),
    ("100%% sure", "sûr à 100 %%", []),
])
def test_a_broken_translation_is_found(monkeypatch, source, translation, problems):
    monkeypatch.setattr(catalogs, "read", lambda language: catalog_with(Message(source, translation)))
    wanted = Catalog()
    wanted.add(source)
    assert catalogs.problems("fr", wanted) == [f"fr: {problem}: {source!r}" for problem in problems]


def test_a_fuzzy_or_missing_message_is_found(monkeypatch):
    monkeypatch.setattr(catalogs, "read", lambda language: catalog_with(Message("Undo", "Annuler", flags=["fuzzy"])))
    wanted = Catalog()
    wanted.add("Undo")
    wanted.add("Redo")
    assert catalogs.problems("fr", wanted) == ["fr: fuzzy: 'Undo'", "fr: missing: 'Redo'"]


def test_a_plural_may_leave_the_count_unsaid_in_one_form_but_not_a_name(monkeypatch):
    source = ("%(num)d seal for %(name)s", "%(num)d seals for %(name)s")
    wanted = Catalog()
    wanted.add(source)
    for forms, found in [
        (("un sceau pour %(name)s", "%(num)d sceaux pour %(name)s"), []),
        (("un sceau", "%(num)d sceaux pour %(name)s"), ["fr: placeholder %(name)s is missing: '%(num)d seal for %(name)s'"]),
    ]:
        monkeypatch.setattr(catalogs, "read", lambda language, forms=forms: catalog_with(Message(source, forms)))
        assert catalogs.problems("fr", wanted) == found


def test_an_app_whose_catalog_cannot_be_loaded_does_not_start_and_says_which(tmp_path):
    # As an install without its compiled catalogs: German and Italian compiled, French missing.
    from companion import create_app
    from companion.i18n import CatalogMissing

    shipped = catalogs.TRANSLATIONS
    for language in ("en", "de", "it"):
        folder = tmp_path / language / "LC_MESSAGES"
        folder.mkdir(parents=True)
        (folder / "messages.mo").write_bytes((shipped / language / "LC_MESSAGES" / "messages.mo").read_bytes())
    settings = {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": "sqlite://",
                "BABEL_TRANSLATION_DIRECTORIES": str(tmp_path)}
    with pytest.raises(CatalogMissing, match=r"the French catalog .*fr/LC_MESSAGES/messages\.mo.* would read English"):
        create_app(settings)
    # A file that is there but is no catalog is refused the same way.
    (tmp_path / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "fr" / "LC_MESSAGES" / "messages.mo").write_bytes(b"not a catalog")
    with pytest.raises(CatalogMissing, match="French"):
        create_app(settings)
    (tmp_path / "fr" / "LC_MESSAGES" / "messages.mo").write_bytes(
        (shipped / "fr" / "LC_MESSAGES" / "messages.mo").read_bytes())
    assert create_app(settings).name == "companion"
