"""Every answer that carries HTML, page or htmx fragment, says so: ``text/html; charset=utf-8``, in the phone's language."""

from __future__ import annotations

import re

from every_page import every_answer


def test_every_page_and_fragment_is_html_in_utf_8_with_its_language(app):
    answers = every_answer(app)
    assert len(answers) > 100
    for what, response in answers:
        assert response.status_code < 500, what
        assert response.text.lstrip().startswith("<"), what  # each of them carries HTML
        assert response.headers["Content-Type"] == "text/html; charset=utf-8", what
        # A whole page says its language in <html lang>; a fragment is in the language the phone asked for.
        page = re.search(r'<html lang="([a-z]+)"', response.text)
        asked = response.request.accept_languages.best or "en"
        assert response.headers["Content-Language"] == (page.group(1) if page else asked), what
        assert "Accept-Language" in response.headers["Vary"], what
