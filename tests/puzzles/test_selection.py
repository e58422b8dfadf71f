"""Which decisions become puzzles: issue 29's cases on hand-built analysed games."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.records import Status
from bot.features.puzzles.rules import (
    BAD_ERROR,
    CLEAR_MARGIN,
    Candidate,
    CubeAnswer,
    CubeOwner,
    Exclusion,
    PuzzleKind,
    Rejection,
    Seat,
    TournamentStage,
    confirm,
    confirm_all,
    exclusion,
    rejection,
    select_puzzles,
)
from tests.puzzles.support import (
    ALICE,
    BAD_PLAY,
    BOB,
    OTHER_ID,
    decision,
    puzzle,
    source,
)

# --- the cases ----------------------------------------------------------------------


def test_a_bad_play_becomes_a_puzzle() -> None:
    [found] = select_puzzles(source(), [decision(BAD_PLAY, "made", game_number=3)])
    assert found.kind is PuzzleKind.CHECKER_PLAY
    assert [item.answer for item in found.candidates] == ["best", "second", "made"]
    assert found.made == "made"
    assert found.equity_lost == pytest.approx(0.20)
    assert found.margin == pytest.approx(0.10)
    assert (found.match_id, found.game_number, found.owner_id) == (7, 3, ALICE)
    assert found.level == "expert"
    assert not found.confirmed  # published only after the strongest level's check


def test_the_mistake_belongs_to_the_player_who_made_it() -> None:
    [found] = select_puzzles(source(), [decision(BAD_PLAY, "made", player=1)])
    assert found.owner_id == BOB


def test_a_close_decision_does_not_qualify() -> None:
    # The play made lost 0.20, but the best is only 0.02 ahead of the second: two answers.
    close = decision({"best": 0.30, "second": 0.28, "made": 0.10}, "made")
    assert rejection(close) is Rejection.NO_CLEAR_ANSWER
    assert select_puzzles(source(), [close]) == []


def test_a_small_error_does_not_qualify() -> None:
    small = decision({"best": 0.30, "made": 0.23}, "made")  # 0.07 lost
    assert rejection(small) is Rejection.SMALL_ERROR
    assert select_puzzles(source(), [small]) == []


def test_the_best_play_made_is_no_puzzle() -> None:
    assert rejection(decision(BAD_PLAY, "best")) is Rejection.SMALL_ERROR


def test_a_forced_play_does_not_qualify() -> None:
    forced = decision({"only": -0.5}, "only")
    assert rejection(forced) is Rejection.FORCED
    assert select_puzzles(source(), [forced]) == []


def test_a_missed_double_is_a_cube_puzzle() -> None:
    missed = decision(
        {CubeAnswer.NO_DOUBLE: 0.55, CubeAnswer.DOUBLE: 0.80},
        CubeAnswer.NO_DOUBLE,
        kind=PuzzleKind.DOUBLE,
        score=(2, 4),
    )
    [found] = select_puzzles(source(), [missed])
    assert found.kind is PuzzleKind.DOUBLE
    assert found.best.answer == CubeAnswer.DOUBLE
    assert found.equity_lost == pytest.approx(0.25)
    assert found.situation.dice is None and found.situation.score == (2, 4)


def test_a_wrong_take_is_a_cube_puzzle() -> None:
    # The receiver's equities: taking leaves -1.2 (a pass costs exactly the cube, -1).
    wrong = decision(
        {CubeAnswer.TAKE: -1.2, CubeAnswer.PASS: -1.0},
        CubeAnswer.TAKE,
        kind=PuzzleKind.TAKE,
        cube=2,
        cube_owner=CubeOwner.OPPONENT,
    )
    [found] = select_puzzles(source(), [wrong])
    assert found.kind is PuzzleKind.TAKE
    assert found.best.answer == CubeAnswer.PASS
    assert found.equity_lost == pytest.approx(0.2)


def test_no_cube_puzzle_in_the_crawford_game() -> None:
    # A hand-built cube decision in the Crawford game (the cube cannot be turned there).
    crawford = decision(
        {CubeAnswer.NO_DOUBLE: 0.2, CubeAnswer.DOUBLE: 0.6},
        CubeAnswer.NO_DOUBLE,
        kind=PuzzleKind.DOUBLE,
        score=(6, 3),
        crawford=True,
    )
    assert rejection(crawford) is Rejection.CRAWFORD
    assert select_puzzles(source(), [crawford]) == []


def test_a_checker_play_in_the_crawford_game_qualifies_with_its_score() -> None:
    play = decision(BAD_PLAY, "made", score=(6, 3), crawford=True)
    [found] = select_puzzles(source(), [play])
    assert found.situation.crawford and found.key.crawford
    # The same position and dice after the Crawford game is another puzzle.
    after = decision(BAD_PLAY, "made", score=(6, 4))
    assert len(select_puzzles(source(), [play, after])) == 2


def test_a_duplicate_gives_one_puzzle() -> None:
    first = decision(BAD_PLAY, "made", game_number=1)
    again = decision({"best": 0.5, "made": 0.1}, "made", game_number=2)  # same key
    [found] = select_puzzles(source(), [first, again])
    assert found.game_number == 1  # the first one met is kept


def test_a_puzzle_already_on_the_server_is_not_made_again() -> None:
    known = {puzzle().key}
    assert rejection(decision(BAD_PLAY, "made"), known) is Rejection.DUPLICATE
    assert select_puzzles(source(), [decision(BAD_PLAY, "made")], known=known) == []


def test_the_same_position_met_from_either_seat_is_one_puzzle() -> None:
    mine = decision(BAD_PLAY, "made", player=0)
    theirs = decision(BAD_PLAY, "made", player=1)
    assert len(select_puzzles(source(), [mine, theirs])) == 1


def test_dice_in_either_order_are_one_roll() -> None:
    low_first = decision(BAD_PLAY, "made", dice=(1, 3))
    assert puzzle().key == select_puzzles(source(), [low_first])[0].key


@pytest.mark.parametrize(
    "change",
    [
        {"position_id": OTHER_ID},
        {"dice": (6, 5)},
        {"score": (1, 0)},
        {"length": 5},
        {"cube": 2, "cube_owner": CubeOwner.ACTOR},
    ],
)
def test_another_position_dice_score_or_cube_is_another_puzzle(change: dict) -> None:
    pair = [decision(BAD_PLAY, "made"), decision(BAD_PLAY, "made", **change)]
    assert len(select_puzzles(source(), pair)) == 2


def test_a_double_and_its_take_are_two_puzzles() -> None:
    double = decision(
        {CubeAnswer.NO_DOUBLE: 0.5, CubeAnswer.DOUBLE: 0.9},
        CubeAnswer.NO_DOUBLE,
        kind=PuzzleKind.DOUBLE,
    )
    take = decision(
        {CubeAnswer.TAKE: -0.5, CubeAnswer.PASS: -1.0},
        CubeAnswer.PASS,
        kind=PuzzleKind.TAKE,
    )
    assert len(select_puzzles(source(), [double, take])) == 2


# --- the thresholds, exactly on their lines ------------------------------------------------


def test_exactly_the_bad_error_qualifies() -> None:
    # 0.30 - 0.22 is 0.07999999999999999 in floating point: still 0.08.
    on_the_line = decision({"best": 0.30, "made": 0.22}, "made")
    assert BAD_ERROR > 0.30 - 0.22
    assert rejection(on_the_line) is None
    assert rejection(decision({"best": 0.30, "made": 0.2201}, "made")) is Rejection.SMALL_ERROR


def test_exactly_the_clear_margin_qualifies() -> None:
    # 0.30 - 0.26 is 0.03999999999999998 in floating point: still 0.04.
    assert rejection(decision({"best": 0.30, "second": 0.26, "made": 0.0}, "made")) is None
    assert CLEAR_MARGIN > 0.30 - 0.26
    narrow = decision({"best": 0.30, "second": 0.2601, "made": 0.0}, "made")
    assert rejection(narrow) is Rejection.NO_CLEAR_ANSWER


# --- which matches may give puzzles ---------------------------------------------------------


@pytest.mark.parametrize(
    "status", [Status.PLAYING, Status.CHALLENGE, Status.CANCELLED, Status.EXPIRED]
)
def test_only_a_finished_match_gives_puzzles(status: Status) -> None:
    live = source(status=status)
    assert exclusion(live) is Exclusion.NOT_FINISHED
    assert select_puzzles(live, [decision(BAD_PLAY, "made")]) == []


def test_a_tournament_game_waits_for_the_end_of_the_tournament() -> None:
    running = source(tournament=TournamentStage.RUNNING)
    assert exclusion(running) is Exclusion.TOURNAMENT_RUNNING
    assert select_puzzles(running, [decision(BAD_PLAY, "made")]) == []
    ended = source(tournament=TournamentStage.ENDED)
    assert exclusion(ended) is None
    assert len(select_puzzles(ended, [decision(BAD_PLAY, "made")])) == 1


@pytest.mark.parametrize("seat", [0, 1])
def test_a_player_who_keeps_their_games_out_is_respected(seat: int) -> None:
    seats = [Seat(ALICE), Seat(BOB)]
    seats[seat] = Seat(seats[seat].user_id, keep_out=True)
    private = source(seats=(seats[0], seats[1]))
    assert exclusion(private) is Exclusion.KEPT_OUT
    # Neither their own mistakes nor their opponent's: the game is theirs too.
    both = [decision(BAD_PLAY, "made", player=0), decision(BAD_PLAY, "made", player=1, dice=(6, 5))]
    assert select_puzzles(private, both) == []


def test_games_against_the_computer_count_and_its_mistakes_have_no_owner() -> None:
    against = source(seats=(Seat(ALICE), Seat(None)))
    mine = decision(BAD_PLAY, "made", player=0)
    its = decision(BAD_PLAY, "made", player=1, dice=(6, 5))
    found = select_puzzles(against, [mine, its])
    assert [item.owner_id for item in found] == [ALICE, None]


# --- confirmation at the strongest level ----------------------------------------------------


def test_the_strongest_level_confirms_a_puzzle_with_its_own_equities() -> None:
    strong = [Candidate("best", "best", 0.25), Candidate("made", "made", 0.05),
              Candidate("second", "second", 0.15)]  # fmt: skip
    checked = confirm(puzzle(), strong, level="world-class")
    assert checked is not None and checked.confirmed_level == "world-class"
    assert [item.equity for item in checked.candidates] == [0.25, 0.15, 0.05]


@pytest.mark.parametrize(
    "strong",
    [
        {"best": 0.25, "second": 0.24, "made": 0.0},  # no longer one clear answer
        {"best": 0.25, "second": 0.10, "made": 0.20},  # the play made was not bad after all
        {"best": 0.0, "second": 0.1, "made": 0.3},  # it was the best
    ],
)
def test_the_strongest_level_can_undo_a_puzzle(strong: dict[str, float]) -> None:
    fresh = [Candidate(answer, answer, value) for answer, value in strong.items()]
    assert confirm(puzzle(), fresh, level="world-class") is None


def test_a_re_evaluation_of_another_decision_is_a_bug() -> None:
    with pytest.raises(ValueError, match="re-evaluation"):
        confirm(puzzle(), [Candidate("best", "best", 0.3)], level="world-class")


def test_confirm_all_calls_the_re_evaluation_once_per_puzzle() -> None:
    asked: list[str] = []
    kept, dropped = puzzle(), puzzle(match_id=8)

    def reevaluate(item):  # the worker's strongest evaluation
        asked.append(str(item.match_id))
        if item.match_id == 8:
            return [Candidate(c.answer, c.notation, 0.0) for c in item.candidates]
        return item.candidates

    confirmed = confirm_all([kept, dropped], reevaluate, level="world-class")
    assert asked == ["7", "8"]
    assert [item.match_id for item in confirmed] == [7]
    assert confirmed[0].confirmed


# --- the rule, for any equities -------------------------------------------------------------

equity = st.floats(min_value=-3.0, max_value=3.0, allow_nan=False).map(lambda x: round(x, 4))


@given(st.lists(equity, min_size=1, max_size=8), st.data())
def test_a_puzzle_is_exactly_a_bad_mistake_with_one_clear_answer(values, data) -> None:
    equities = {f"p{index}": value for index, value in enumerate(values)}
    made = data.draw(st.sampled_from(sorted(equities)))
    found = select_puzzles(source(), [decision(equities, made)])
    ordered = sorted(values, reverse=True)
    qualifies = (
        len(values) >= 2
        and ordered[0] - equities[made] >= BAD_ERROR - 1e-9
        and ordered[0] - ordered[1] >= CLEAR_MARGIN - 1e-9
    )
    assert bool(found) == qualifies
    for item in found:
        assert item.best.equity == ordered[0]
        assert item.made == made
        # selecting again with what the server now holds gives nothing new
        assert select_puzzles(source(), [decision(equities, made)], known={item.key}) == []
