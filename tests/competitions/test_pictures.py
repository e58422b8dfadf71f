"""The competition pictures: built in the reader's language, readable, with medals.

Words come from :mod:`bot.present.competitions` (checked in English and French); the
pictures from :mod:`renderers.standings` (checked by their pixels where a colour must be,
by measuring every label against the room it gets, and against two small goldens).

To regenerate the goldens after an intended change of the picture, run

    GAMMON_UPDATE_GOLDENS=1 .venv/bin/python -m pytest tests/competitions/test_pictures.py

then look at every file in tests/competitions/golden/ before committing it.
"""

from __future__ import annotations

import io
import os
import random
from operator import attrgetter
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.features.tournaments.refusals import RULES
from bot.features.tournaments.refusals import refused as refusal_of
from bot.features.tournaments.rules import (
    CompetitionError,
    Game,
    Knockout,
    Ladder,
    MatchKey,
    Pairing,
    Result,
    RoundRobin,
    Section,
    Swiss,
    knockout,
    lifecycle,
    model,
    standings,
    swiss,
)
from bot.features.tournaments.rules import ladder as ladder_rules
from bot.features.tournaments.rules.standings import SWISS_TIE_BREAKS
from bot.i18n import LANGUAGES
from bot.present.competitions import (
    competition_labels,
    group_picture,
    knockout_picture,
    ladder_picture,
    standings_picture,
    swiss_picture,
)
from renderers.standings import (
    MEDALS,
    TABLE_WIDTH,
    BracketMatch,
    BracketPicture,
    BracketSide,
    TablePicture,
    TableRow,
    bracket_size,
    render_bracket,
    render_table,
    table_size,
)
from renderers.text import text_width
from renderers.theme import CLASSIC, DARK
from tests.competitions.support import play_knockout, play_swiss, played
from tests.renderers.support import pixel
from tests.telling import refused

GOLDEN = Path(__file__).with_name("golden")
UPDATE = os.environ.get("GAMMON_UPDATE_GOLDENS") == "1"
NAMES = {i: name for i, name in enumerate(
    ["alice 🎲", "Bob Marley 山田", "carol", "dave", "eve", "frank", "gina", "harry"]
)}  # fmt: skip


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def near(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


# --- words ---------------------------------------------------------------------------------


def test_round_names_in_english_and_french() -> None:
    event = Knockout(tuple(range(16)))
    english = knockout_picture(event, names=NAMES, title="KO", language="en", max_rounds=4)
    assert english.round_titles == ("Round 1", "Quarter-finals", "Semi-finals", "Final")
    french = knockout_picture(event, names=NAMES, title="KO", language="fr", max_rounds=4)
    assert french.round_titles == ("Tour 1", "1/4 de finale", "Demi-finales", "Finale")
    assert french.subtitle == "tour 1 sur 4 · matchs en 5 points"


def test_a_bracket_picture_shows_the_rounds_being_played_and_marks_walkovers() -> None:
    event = Knockout(tuple(range(5)), lengths=(5, 7))
    event = event.record(MatchKey(Section.MAIN, 1, 1), Result.walkover(3, 4))
    picture = knockout_picture(event, names=NAMES, title="KO", language="en")
    first = picture.rounds[0]
    assert first[0].top == BracketSide("alice 🎲", 1, "", won=True)
    assert first[0].bottom == BracketSide("bye", muted=True)
    assert first[1].top.score == "W/O" and first[1].top.won and first[1].bottom.score == ""
    assert picture.rounds[1][0].bottom == BracketSide("dave", 4)  # the walkover's winner
    assert picture.rounds[2][0].top == BracketSide(pending=True)  # the final: not known yet
    french = knockout_picture(event, names=NAMES, title="KO", language="fr")
    assert french.rounds[0][1].top.score == "forf."
    assert french.rounds[0][0].bottom.name == "exempt"


def test_a_finished_knockout_has_its_champion_and_podium() -> None:
    event = play_knockout(Knockout(tuple(range(8)), consolation=True), random.Random(4))
    picture = knockout_picture(event, names=NAMES, title="KO")
    assert event.champion is not None
    assert picture.champion == NAMES[event.champion]
    assert [place for place, _ in picture.podium] == [1, 2, 3]
    consolation = knockout_picture(event, names=NAMES, title="KO", section=Section.CONSOLATION)
    assert consolation.champion is None and consolation.round_titles[-1] == "Consolation final"


def test_a_large_bracket_shows_at_most_three_rounds_from_the_current_one() -> None:
    event = Knockout(tuple(range(64)))
    assert len(knockout_picture(event, names={}, title="KO").rounds) == 3
    for match in event.ready():
        a, b = match.players
        event = event.record(match.key, played(a, b))
    picture = knockout_picture(event, names={}, title="KO")
    assert picture.round_titles[0] == "Round 2" and len(picture.rounds[0]) == 16
    assert picture.rounds[0][0].top.name == "0"  # a player without a name: their number


def test_swiss_table_columns_and_french_decimals() -> None:
    event = Swiss.start(range(3), rounds=3)
    for key, pairing in event.open_matches():
        event = event.record(key, Result.walkover(pairing.a, pairing.players[-1]))
    event = event.pair_next()
    picture = swiss_picture(event, names=NAMES, title="Swiss", language="fr")
    assert picture.columns == ("Pts", "Buch", "SB", "V-D")
    assert picture.subtitle == "après le tour 1 sur 3"
    assert all(row.medal is None for row in picture.rows)  # not over yet
    # A walkover counts as a draw in a later opponent's Buchholz: 1 + 0.5, written 1,5.
    games = [
        Game(1, Pairing(0, 1), Result.walkover(0, 1), 5),
        Game(1, Pairing(2, 3), played(2, 3), 5),
        Game(2, Pairing(0, 2), played(0, 2), 5),
        Game(2, Pairing(3, 1), played(3, 1), 5),
    ]
    rows = standings(range(4), games, rounds_completed=2)
    french = standings_picture(rows, names=NAMES, title="T", subtitle="", language="fr",
                               tie_breaks=SWISS_TIE_BREAKS)  # fmt: skip
    assert next(r for r in french.rows if r.name == "dave").cells[:2] == ("1", "1,5")
    finished = play_swiss(Swiss.start(range(5)), random.Random(1))
    done = swiss_picture(finished, names=NAMES, title="Swiss")
    assert [row.medal for row in done.rows] == [1, 2, 3, None, None]
    assert done.subtitle == "final standings"


def test_group_and_ladder_tables() -> None:
    event = RoundRobin.draw(list(range(4)))
    picture = group_picture(event, 0, names=NAMES, title="Group")
    assert picture.columns == ("Pts", "SB", "+/-", "W-L") and len(picture.rows) == 4
    ladder = Ladder()
    for player in range(4):
        ladder = ladder.join(player)
    ladder, _ = ladder.issue(3, 1, __import__("datetime").datetime(2026, 1, 1))
    table = ladder_picture(ladder, names=NAMES, title="Ladder", language="fr")
    assert table.subtitle == "4 joueurs · 1 défi en cours"
    assert [row.medal for row in table.rows] == [1, 2, 3, None]


def _error_classes() -> set[type[CompetitionError]]:
    modules = (model, lifecycle, ladder_rules, swiss, knockout)
    return {
        value
        for module in modules
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, CompetitionError)
        and value is not CompetitionError
    }  # fmt: skip


@pytest.mark.parametrize("kind", sorted(_error_classes(), key=attrgetter("__name__")))
def test_every_refusal_has_a_sentence(kind: type[CompetitionError]) -> None:
    assert kind in RULES
    error = kind.__new__(kind)
    for language in LANGUAGES:
        assert refused(refusal_of(error), language)


# --- pictures -------------------------------------------------------------------------------


def table(rows: int = 8) -> TablePicture:
    return TablePicture(
        title="Club Swiss",
        subtitle="after round 4 of 4",
        name_header="Player",
        columns=("Pts", "Buch", "SB", "W-L"),
        rows=tuple(
            TableRow(
                i + 1,
                NAMES[i % 8],
                (str(8 - i), "12", "7,5", "4-0"),
                medal=i + 1 if i < 3 else None,
            )
            for i in range(rows)
        ),
    )


def bracket() -> BracketPicture:
    def side(player: int, score: str = "", won: bool = False) -> BracketSide:
        return BracketSide(NAMES[player], player + 1, score, won)

    return BracketPicture(
        title="Friday knockout",
        subtitle="final standings",
        round_titles=("Semi-finals", "Final"),
        rounds=(
            (
                BracketMatch(side(0, "5", True), side(3, "2")),
                BracketMatch(side(1, "1"), side(2, "5", True)),
            ),
            (BracketMatch(side(0, "7", True), side(2, "3")),),
        ),
        champion=NAMES[0],
        champion_title="Champion",
        podium=((1, NAMES[0]), (2, NAMES[2]), (3, NAMES[1])),
    )  # fmt: skip


@pytest.mark.parametrize("rows", [1, 8, 64])
def test_table_size_and_medals(rows: int) -> None:
    image = decode(render_table(table(rows)))
    assert image.size == table_size(rows) == (TABLE_WIDTH, image.height)
    # The first rows' medals sit in the rank column, in the medal colours.
    for place in range(1, min(rows, 3) + 1):
        y = 64 + 40 + 12 + 46 + (place - 1) * 54 + 27
        centre = pixel(image, (24 + 36 - 6, y))
        assert near(centre, MEDALS[place][0], 40) or near(
            pixel(image, (24 + 36 - 6 - 10, y)), MEDALS[place][0], 40
        ), (place, centre)


def test_themes_change_the_background() -> None:
    light = decode(render_table(table(), theme="classic"))
    dark = decode(render_table(table(), theme="dark"))
    corner = (TABLE_WIDTH - 2, light.height - 2)
    assert light.getpixel(corner) == CLASSIC.background
    assert dark.getpixel(corner) == DARK.background
    assert decode(render_table(table(), theme=DARK)).tobytes() == dark.tobytes()


def test_bracket_size_champion_box_and_winner_marks() -> None:
    picture = bracket()
    image = decode(render_bracket(picture))
    assert image.size == bracket_size(picture)
    colours = {c for _, c in image.getcolors(maxcolors=256) or [] if isinstance(c, tuple)}
    assert CLASSIC.panel_active in colours  # the champion's box
    assert CLASSIC.accent in colours  # the winners' marks
    assert MEDALS[1][0] in colours or any(near(c, MEDALS[1][0], 10) for c in colours)


@pytest.mark.parametrize("width", [300, 1000, 3000])
def test_any_width_in_range_draws(width: int) -> None:
    assert decode(render_bracket(bracket(), width=width)).width == width
    assert decode(render_table(table(3), width=width)).width == width
    with pytest.raises(ValueError):
        render_table(table(), width=200)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_label_fits_its_room(language: str) -> None:
    """Column headers in their 92 px cells, round titles in a column of a three-round
    bracket with its champion (about 200 px), in every language."""
    labels = competition_labels(language)
    for header in (labels.points, labels.buchholz, labels.sonneborn_berger,
                   labels.points_difference, labels.record):  # fmt: skip
        assert text_width(header, 24, bold=True) <= 92 - 6, header
    column = (1000 - 2 * 24 - 3 * 34) // 4  # three rounds and the champion
    for title in (labels.quarter_finals, labels.semi_finals, labels.final, labels.champion,
                  labels.round_n.format(n=12)):  # fmt: skip
        assert text_width(title, 24, bold=True) <= column, title
    column = (1000 - 2 * 24 - 2 * 34) // 3  # the consolation has no champion column
    for title in (labels.consolation_final, labels.consolation_n.format(n=12), labels.playoff):
        assert text_width(title, 24, bold=True) <= column, title
    assert text_width(labels.walkover, 24, bold=True) <= 64  # the score column


GOLDENS = {
    "table-classic.png": lambda: render_table(table(5), width=500, theme="classic"),
    "bracket-dark.png": lambda: render_bracket(bracket(), width=500, theme="dark"),
}


@pytest.mark.parametrize("filename", sorted(GOLDENS))
def test_picture_matches_its_golden(filename: str) -> None:
    png = GOLDENS[filename]()
    path = GOLDEN / filename
    if UPDATE:
        path.write_bytes(png)
    assert path.exists(), f"no golden {path.name}: see this module's docstring"
    expected, actual = decode(path.read_bytes()), decode(png)
    assert actual.size == expected.size
    diff = ImageChops.difference(actual, expected)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    far = sum(1 for pixel in diff.convert("L").tobytes() if pixel > 64)
    assert mean < 1.5, f"{filename}: mean difference {mean:.2f}"
    assert far < 0.005 * actual.width * actual.height, f"{filename}: {far} pixels differ"


@pytest.mark.parametrize("players", [5, 7, 8, 12, 16])
def test_a_progressive_consolation_bracket_is_drawn_round_after_round(players: int) -> None:
    """A consolation's feed rounds have as many matches as the round before (a newcomer
    meets each winner): drawing it used to index past the previous round's column (the
    picture after round 1 of an 8-player knockout with consolation raised IndexError)."""
    event = Knockout(tuple(range(1, players + 1)), consolation=True, lengths=(1,))
    while not event.finished:
        for match in event.ready():
            top, bottom = match.top.player, match.bottom.player
            assert top is not None and bottom is not None
            event = event.record(match.key, Result.played(top, bottom, (1, 0)))
        for section in (Section.MAIN, Section.CONSOLATION):
            if event.section(section):
                picture = knockout_picture(event, names={}, title="KO", section=section)
                with Image.open(io.BytesIO(render_bracket(picture))) as image:
                    assert image.size[0] == 1000
