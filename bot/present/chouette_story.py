"""A chouette told in words: each event of a change as a line, what the table waits for
next, and the whole session as a log players can download.

Built from the rules' events (:class:`~bot.features.chouette.rules.Event`) and the session
value alone; ``display`` formats a name the front end's way (escaped for Discord, plain in
a file).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.features.chouette.rules import (
    Answer,
    Chouette,
    Event,
    Kind,
    Offer,
    Settled,
    Side,
    Stage,
    Status,
    window_decided,
)
from bot.i18n import Text, _, join, say

Display = Callable[[str], str]


def signed(points: int) -> str:
    """Points with their sign, as a score sheet writes them: +3, 0, −2."""
    return f"+{points}" if points > 0 else ("0" if points == 0 else f"\u2212{-points}")


def _names(players: Sequence[int], names: Mapping[int, str], display: Display) -> str:
    return ", ".join(display(names.get(p, str(p))) for p in players)


def event_line(e: Event, s: Chouette, display: Display = str) -> Text | None:
    """One event in words (None: an event the board already shows, or none to tell)."""
    names = s.names

    def who(player: int | None) -> str:
        return display(names.get(player or 0, str(player)))

    kind = e.kind
    if kind is Kind.JOINED:
        if s.status is Status.PLAYING and e.player in s.waiting:
            return _(
                "{player} takes a seat: in at the back of the line next game.", player=who(e.player)
            )
        return _("{player} takes a seat.", player=who(e.player))
    if kind is Kind.LEFT:
        return _("{player} leaves the table.", player=who(e.player))
    if kind is Kind.ORDERED:
        rolls = ", ".join(f"{who(p)} {d}" for p, d in zip(e.players, e.dice, strict=True))
        return _("The dice for the seats: {rolls}.", rolls=rolls)
    if kind is Kind.GAME:
        box, captain, line = e.players[0], e.players[1], e.players[2:]
        if e.value:
            return _(
                "Game {number}: {box} in the box with {partner}, against {captain} (captain)"
                " and {line}.",
                number=e.game,
                box=who(box),
                partner=who(e.value),
                captain=who(captain),
                line=_names(line, names, display) or "-",
            )
        if not line:
            return _(
                "Game {number}: {box} against {captain}, a money game.",
                number=e.game,
                box=who(box),
                captain=who(captain),
            )
        return _(
            "Game {number}: {box} in the box against {captain} (captain) and {line}.",
            number=e.game,
            box=who(box),
            captain=who(captain),
            line=_names(line, names, display),
        )
    if kind is Kind.OPENING:
        return _(
            "Opening roll: the box {box}, the captain {captain}.", box=e.dice[0], captain=e.dice[1]
        )
    if kind is Kind.AUTO_DOUBLE:
        return _("A tie: every cube turns to {value}.", value=e.value)
    if kind is Kind.DOUBLED:
        return _("{player} doubles the box: cube to {value}.", player=who(e.player), value=e.value)
    if kind is Kind.NO_DOUBLE:
        return _("{player} does not double.", player=who(e.player))
    if kind is Kind.WINDOW_CLOSED:
        return _("{player} rolls for the team: first the box answers.", player=who(e.player))
    if kind is Kind.BOX_DOUBLED:
        return _(
            "{player} doubles {members}.",
            player=who(e.player),
            members=_names(e.players, names, display),
        )
    if kind is Kind.ANSWERED:
        return _answer_line(e, who)
    if kind is Kind.FOLLOWED:
        return _("{player} follows the captain.", player=who(e.player))
    if kind is Kind.ROLLED:
        return _("{player} rolls {dice}.", player=who(e.player), dice=f"{e.dice[0]}-{e.dice[1]}")
    if kind is Kind.MOVED:
        return _("{player} plays {play}.", player=who(e.player), play=e.play or "")
    if kind is Kind.PASSED:
        return _("{player} cannot move.", player=who(e.player))
    if kind is Kind.ACTING:
        return _("{player} now moves the checkers for the team.", player=who(e.player))
    if kind is Kind.SETTLED:
        return _settled_line(e, who)
    if kind is Kind.OVER:
        return _over_line(e)
    if kind is Kind.ROTATED:
        return None  # the next game's line says who sits where
    if kind is Kind.ADVICE:
        return _("{player} sent the captain a suggestion.", player=who(e.player))
    if kind is Kind.ENDED:
        return _("The chouette is over.")
    if kind is Kind.VOIDED:
        return _("The game in play ends with no result.")
    if kind is Kind.BEGAN:
        return None
    return None


def _answer_line(e: Event, who: Callable[[int | None], str]) -> Text:
    own = e.player == e.member
    if e.answer is Answer.DROP:
        if own:
            return _("{player} drops.", player=who(e.player))
        return _("{player} drops {member}'s double.", player=who(e.player), member=who(e.member))
    if e.answer is Answer.BEAVER:
        if own:
            return _("{player} beavers: cube at {value}.", player=who(e.player), value=e.value)
        return _(
            "{player} beavers {member}'s double: cube at {value}.",
            player=who(e.player),
            member=who(e.member),
            value=e.value,
        )
    if own:
        return _("{player} takes: cube at {value}.", player=who(e.player), value=e.value)
    return _(
        "{player} takes {member}'s double: cube at {value}.",
        player=who(e.player),
        member=who(e.member),
        value=e.value,
    )


def _settled_line(e: Event, who: Callable[[int | None], str]) -> Text:
    points = signed(e.points or 0)
    if e.settled is Settled.MEMBER_DROPPED:
        return _("{player} is out of the game: {points}.", player=who(e.player), points=points)
    if e.settled is Settled.BOX_DROPPED:
        return _("{player} wins the cube: {points}.", player=who(e.player), points=points)
    if e.settled is Settled.BOX_LEFT:
        return _(
            "The box left: {player} wins the cube, {points}.", player=who(e.player), points=points
        )
    if e.settled is Settled.TEAM_LEFT:
        return _(
            "Nobody plays on for {player}'s cube: {points}.", player=who(e.player), points=points
        )
    return _("{player}: {points}.", player=who(e.player), points=points)


def _over_line(e: Event) -> Text:
    if e.winner is None:
        return _("Game {number} is over.", number=e.game)
    kinds = {
        1: _("a single game"),
        2: _("a gammon"),
        3: _("a backgammon"),
    }
    kind = kinds.get(e.value or 1, kinds[1])
    if e.winner == Side.BOX:
        return _("The box wins {kind}.", kind=kind)
    return _("The team wins {kind}.", kind=kind)


def story(events: Sequence[Event], s: Chouette, display: Display = str) -> list[Text]:
    """Every event of a change worth telling, in order."""
    lines = [event_line(e, s, display) for e in events]
    return [line for line in lines if line is not None]


def next_line(s: Chouette, display: Display = str, mention: Display | None = None) -> Text | None:
    """What the table waits for now, naming whoever must act (``mention`` to call them)."""
    call = mention or display
    g = s.game
    if s.status is Status.OPEN:
        return _("Press Take a seat to join; with three players or more, press Begin.")
    if s.status is Status.ENDED or g is None or g.over:
        return None

    def who(player: int) -> str:
        return call(s.name(player))

    if g.stage is Stage.WINDOW:
        if s.is_computer(g.acting):
            if window_decided(s):
                return _("The computer rolls for the team.")
            return _("Members: Double or No double; the computer rolls once you have all decided.")
        return _("{captain} rolls for the team; members may double first.", captain=who(g.acting))
    if g.stage is Stage.BOX_ANSWERS:
        return _("{box}: answer the doubles, take or drop each.", box=who(g.box))
    if g.stage is Stage.BOX_TURN:
        return _("{box}: roll, or double any members first.", box=who(g.box))
    if g.stage is Stage.MEMBER_ANSWERS:
        pending = [c.member for c in g.cubes if c.offer is Offer.BY_BOX and c.member not in g.away]
        return _(
            "{members}: take or drop.", members=", ".join(who(m) for m in pending) or who(g.acting)
        )
    mover = g.to_move
    if mover is not None and g.board.dice is not None:
        dice = f"{g.board.dice[0]}-{g.board.dice[1]}"
        return _("{player} to play {dice}.", player=who(mover), dice=dice)
    return None


def to_call(s: Chouette) -> list[int]:
    """Who the table waits on now (people, not the computer): whom a board post calls."""
    g = s.game
    if g is None or s.status is not Status.PLAYING or g.over:
        return []
    if g.stage is Stage.WINDOW:
        wanted = [g.acting]
    elif g.stage in (Stage.BOX_ANSWERS, Stage.BOX_TURN):
        wanted = [g.box]
    elif g.stage is Stage.MEMBER_ANSWERS:
        wanted = [c.member for c in g.cubes if c.offer is Offer.BY_BOX and c.member not in g.away]
    else:
        wanted = [g.to_move] if g.to_move is not None else []
    return [p for p in wanted if not s.is_computer(p)]


# --- the session log ----------------------------------------------------------------------


def log_text(events: Sequence[Event], s: Chouette, language: str, header: Text) -> str:
    """The whole session, one event a line, games separated: a file players download."""
    out = [say(header, language), ""]
    game = -1
    for e in events:
        if e.game != game and e.kind is Kind.GAME:
            out.append("")
            game = e.game
        line = event_line(e, s)
        if line is not None:
            out.append(say(line, language))
    table = sorted(s.table.items(), key=lambda item: -item[1])
    out += ["", say(_("Session table:"), language)]
    out += [f"  {s.name(p)}: {signed(v)}" for p, v in table]
    return "\n".join(out) + "\n"


def log_header(number: int) -> Text:
    return _("Chouette #{number}: the session log", number=number)


__all__ = [
    "event_line",
    "join",
    "log_header",
    "log_text",
    "next_line",
    "signed",
    "story",
    "to_call",
]
