"""Form fields that stay calm whatever a browser sends."""

from __future__ import annotations

import wtforms

from ..rules.words import _

MAX_DIGITS = 9


class IntegerField(wtforms.IntegerField):
    """An integer field that refuses absurdly long numbers before any validator sees them.

    WTForms' NumberRange converts the value to float to check for NaN, which
    raises OverflowError (a 500) for a 400-digit number.
    """

    def process_formdata(self, valuelist: list) -> None:
        if valuelist and len(str(valuelist[0]).strip().lstrip("+-")) > MAX_DIGITS:
            self.data = None
            raise ValueError(_("Enter a smaller number."))
        super().process_formdata(valuelist)
