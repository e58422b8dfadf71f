"""Every word on the board fits, in every language, with the longest names.

The board's words come from a :class:`~renderers.panels.BoardWords` the caller builds in the
reader's language (:func:`bot.present.board_words`). Players' names may be shortened with an
ellipsis (a Discord display name has up to 32 characters); the words around them never are:
statuses, pip and score labels, the footer's terms and IDs, the banner's result and score.
The text drawing calls are recorded and each label is measured against the room it was given.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import renderers.panels as panels
from bot.engine import Game, MatchOptions, ResultKind
from bot.i18n import LANGUAGES
from bot.present import board_words
from renderers import render_board
from renderers.examples import EXAMPLES
from renderers.panels import BoardWords
from renderers.text import clean, text_width
from renderers.theme import DEFAULT_WIDTH, Layout

# The widest names Discord allows (32 characters), in wide Latin and in a fallback script.
LONGEST = [("W" * 32, "Ŵ" * 32), ("山" * 32, "M" * 32)]


def states() -> Iterator[tuple[str, Game]]:
    """A game in every state a panel, the footer or the banner describes."""
    match = Game.new(MatchOptions(length=25))
    yield "opening roll", match
    moving = match.opening_roll(3, 1)
    yield "to move", moving
    rolling = moving.move("8/5 6/5")
    yield "to roll or double", rolling
    doubled = rolling.double()
    yield "doubles, to take or drop", doubled
    offer = rolling.offer_resignation(1, ResultKind.BACKGAMMON)
    yield "resigns, to accept or reject", offer
    yield "resigned a backgammon", offer.accept_resignation()
    yield "dropped the double", doubled.drop()
    yield "forfeit: wins the match", rolling.forfeit(0, whole_match=True)
    money = Game.new(MatchOptions(length=0)).opening_roll(6, 5)
    yield "money game", money
    for name, make in EXAMPLES.items():
        yield name, make()[0]


class Recorder:
    """Stands in for the panels' text drawing and notes what each call was asked to fit."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[str, int, bool, int]] = []
        keyed, image = panels.keyed_text, panels.text_image

        def keyed_text(text: str, size: int, colour: Any, **kw: Any) -> Any:
            self.note(text, size, kw)
            return keyed(text, size, colour, **kw)

        def text_image(text: str, size: int, colour: Any, **kw: Any) -> Any:
            self.note(text, size, kw)
            return image(text, size, colour, **kw)

        monkeypatch.setattr(panels, "keyed_text", keyed_text)
        monkeypatch.setattr(panels, "text_image", text_image)

    def note(self, text: str, size: int, kw: dict[str, Any]) -> None:
        self.calls.append((text, size, kw.get("bold", False), kw.get("max_width", 10_000)))


def test_the_french_words_are_french() -> None:
    assert "fr" in LANGUAGES
    assert board_words("fr") != BoardWords(), "the French catalogue has no board words"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("names", LONGEST, ids=["latin", "cjk"])
def test_every_label_fits_with_the_longest_names(
    language: str, names: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    words = board_words(language)
    layout = Layout.for_width(DEFAULT_WIDTH)
    recorder = Recorder(monkeypatch)
    drawn_names = {clean(name) for name in names}
    for label, game in states():
        for perspective in (0, 1):
            recorder.calls.clear()
            render_board(game, perspective=perspective, names=names, words=words)
            for text, size, bold, room in recorder.calls:
                if text in drawn_names:
                    continue  # a name alone may be shortened to fit
                width = text_width(text, size, bold=bold)
                assert width <= room, f"{language} {label}: {text!r} is cut ({width:.0f}>{room})"
            _footer_fits(recorder.calls, game, words, layout, language, label)


def _footer_fits(
    calls: list[tuple[str, int, bool, int]],
    game: Game,
    words: BoardWords,
    layout: Layout,
    language: str,
    label: str,
) -> None:
    """The match terms (left) and the IDs (right) of the footer do not run into each other."""
    ids = words.ids.format(position=game.position_id(), match=game.match_id())
    (ids_call,) = [c for c in calls if c[0] == ids]
    terms_call = next(c for c in calls if c[1] == layout.px(18) and c[0] != ids)
    x0, _, x1, _ = layout.footer_rect()
    used = sum(text_width(text, size, bold=bold) for text, size, bold, _ in (terms_call, ids_call))
    room = (x1 - x0) - 2 * layout.px(14) - layout.px(12)  # both margins and a gap between
    assert used <= room, f"{language} {label}: footer needs {used:.0f} of {room}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_banner_keeps_its_words_when_names_are_cut(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    words = board_words(language)
    recorder = Recorder(monkeypatch)
    names = LONGEST[0]
    offer = Game.new(MatchOptions(length=25)).opening_roll(3, 1).offer_resignation(1)
    render_board(offer.accept_resignation(), perspective=0, names=names, words=words)
    texts = [text for text, *_ in recorder.calls]
    headline = words.winner_wins.format(winner="", points=words.points_words(1)).strip()
    assert any(text.endswith(headline) and "…" in text for text in texts), texts
    resigned = words.resigned.format(loser="", kind=words.kind_name(ResultKind.SINGLE)).strip()
    assert any(resigned in text for text in texts), texts


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_short_name_stays_whole_beside_a_long_one(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder = Recorder(monkeypatch)
    offer = Game.new(MatchOptions(length=5)).opening_roll(3, 1).offer_resignation(1)
    game = offer.accept_resignation()
    render_board(game, perspective=0, names=("alice", "W" * 32), words=board_words(language))
    details = [text for text, *_ in recorder.calls if "…" in text and "alice" in text]
    assert details, recorder.calls  # alice leads 1-0: named whole beside the cut name
