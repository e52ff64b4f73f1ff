"""The words argparse itself prints, marked so that Babel puts them in our catalogue.

argparse's strings live in the standard library, out of reach of `pybabel extract`; these are
its msgids (Python 3.11), copied exactly, so that `i18n.translate_argparse` finds a
translation for each. Only the ones a user can meet are listed: help headings, usage, and the
errors for bad command lines (not the ones for a programmer's mistake in building a parser).
"""

from __future__ import annotations

from leekha.client.i18n import N_, ngettext

WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("ignored explicit argument %r"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)


def _plurals(n: int) -> str:
    """Never called: it carries argparse's one plural message to the extractor."""
    return ngettext("expected %s argument", "expected %s arguments", n)
