"""A chouette session as JSON, so the store keeps it in one column: the one place that knows
how a :class:`~bot.features.chouette.rules.Chouette` looks on disk.

The board is the engine's game, written by the game codec (:mod:`bot.core.codec`); the rest
are plain lists and numbers. Missing keys take their defaults, so a session stored before a
field was added still loads. Events are written the same way for the session's log.
"""

from __future__ import annotations

import json
from typing import Any

from bot.core.codec import game_from_dict, game_to_dict
from bot.features.chouette.rules import (
    Answer,
    AnswerOrder,
    Chouette,
    ChouetteGame,
    ChouetteOptions,
    Consultation,
    Cube,
    Event,
    GameRecord,
    Kind,
    Offer,
    Rotation,
    Seat,
    Settled,
    Side,
    Stage,
    Status,
)


def _options(o: ChouetteOptions) -> dict[str, Any]:
    return {
        "jacoby": o.jacoby,
        "beavers": o.beavers,
        "consultation": str(o.consultation),
        "box_takes_captain": o.box_takes_captain,
        "box_takes_half": o.box_takes_half,
        "answer_order": str(o.answer_order),
        "captain_must_beaver": o.captain_must_beaver,
        "partner": o.partner,
        "auto_doubles": o.auto_doubles,
        "rotation": str(o.rotation),
        "level": o.level,
    }


def options_from(data: dict[str, Any]) -> ChouetteOptions:
    d = ChouetteOptions()
    return ChouetteOptions(
        jacoby=bool(data.get("jacoby", d.jacoby)),
        beavers=bool(data.get("beavers", d.beavers)),
        consultation=Consultation(data.get("consultation", d.consultation)),
        box_takes_captain=bool(data.get("box_takes_captain", d.box_takes_captain)),
        box_takes_half=bool(data.get("box_takes_half", d.box_takes_half)),
        answer_order=AnswerOrder(data.get("answer_order", d.answer_order)),
        captain_must_beaver=bool(data.get("captain_must_beaver", d.captain_must_beaver)),
        partner=bool(data.get("partner", d.partner)),
        auto_doubles=int(data.get("auto_doubles", d.auto_doubles)),
        rotation=Rotation(data.get("rotation", d.rotation)),
        level=str(data.get("level", d.level)),
    )


def _cube(c: Cube) -> list[Any]:
    return [
        c.member,
        c.value,
        None if c.owner is None else int(c.owner),
        c.turned,
        None if c.offer is None else str(c.offer),
        c.points,
        None if c.settled is None else str(c.settled),
    ]


def _cube_from(data: list[Any]) -> Cube:
    member, value, owner, turned, offer, points, settled = data
    return Cube(
        int(member),
        int(value),
        None if owner is None else Side(owner),
        bool(turned),
        None if offer is None else Offer(offer),
        None if points is None else int(points),
        None if settled is None else Settled(settled),
    )


def _game(g: ChouetteGame) -> dict[str, Any]:
    return {
        "number": g.number,
        "board": game_to_dict(g.board),
        "cubes": [_cube(c) for c in g.cubes],
        "box": g.box,
        "captain": g.captain,
        "acting": g.acting,
        "stage": str(g.stage),
        "partner": g.partner,
        "away": sorted(g.away),
        "follow": sorted(g.follow),
        "answers": [[m, str(a)] for m, a in g.answers],
        "considered": sorted(g.considered),
        "advice": [[m, t] for m, t in g.advice],
        "auto_doubles": g.auto_doubles,
        "captain_won": g.captain_won,
    }


def _game_from(d: dict[str, Any]) -> ChouetteGame:
    return ChouetteGame(
        number=int(d["number"]),
        board=game_from_dict(d["board"]),
        cubes=tuple(_cube_from(c) for c in d["cubes"]),
        box=int(d["box"]),
        captain=int(d["captain"]),
        acting=int(d["acting"]),
        stage=Stage(d["stage"]),
        partner=d.get("partner"),
        away=frozenset(int(m) for m in d.get("away", ())),
        follow=frozenset(int(m) for m in d.get("follow", ())),
        answers=tuple((int(m), Answer(a)) for m, a in d.get("answers", ())),
        considered=frozenset(int(m) for m in d.get("considered", ())),
        advice=tuple((int(m), str(t)) for m, t in d.get("advice", ())),
        auto_doubles=int(d.get("auto_doubles", 0)),
        captain_won=d.get("captain_won"),
    )


def _record(r: GameRecord) -> dict[str, Any]:
    return {
        "number": r.number,
        "box": r.box,
        "captain": r.captain,
        "partner": r.partner,
        "points": [list(p) for p in r.points],
        "cubes": [_cube(c) for c in r.cubes],
        "kind": r.kind,
        "winner": None if r.winner is None else int(r.winner),
        "captain_won": r.captain_won,
        "voided": r.voided,
    }


def _record_from(d: dict[str, Any]) -> GameRecord:
    return GameRecord(
        number=int(d["number"]),
        box=int(d["box"]),
        captain=int(d["captain"]),
        partner=d.get("partner"),
        points=tuple((int(p), int(n)) for p, n in d["points"]),
        cubes=tuple(_cube_from(c) for c in d["cubes"]),
        kind=int(d["kind"]),
        winner=None if d.get("winner") is None else Side(d["winner"]),
        captain_won=bool(d["captain_won"]),
        voided=bool(d.get("voided", False)),
    )


def dumps(s: Chouette) -> str:
    data = {
        "options": _options(s.options),
        "seats": [[seat.id, seat.name, seat.computer] for seat in s.seats],
        "status": str(s.status),
        "order": list(s.order),
        "waiting": list(s.waiting),
        "leaving": sorted(s.leaving),
        "game": None if s.game is None else _game(s.game),
        "records": [_record(r) for r in s.records],
        "moment": s.moment,
        "first_box": s.first_box,
    }
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def loads(text: str) -> Chouette:
    d = json.loads(text)
    return Chouette(
        options=options_from(d.get("options", {})),
        seats=tuple(Seat(int(i), str(n), bool(c)) for i, n, c in d.get("seats", ())),
        status=Status(d.get("status", Status.OPEN)),
        order=tuple(int(p) for p in d.get("order", ())),
        waiting=tuple(int(p) for p in d.get("waiting", ())),
        leaving=frozenset(int(p) for p in d.get("leaving", ())),
        game=None if d.get("game") is None else _game_from(d["game"]),
        records=tuple(_record_from(r) for r in d.get("records", ())),
        moment=int(d.get("moment", 0)),
        first_box=None if d.get("first_box") is None else int(d["first_box"]),
    )


_EVENT_FIELDS = ("player", "member", "value", "points", "winner", "play")


def event_dumps(e: Event) -> str:
    data: dict[str, Any] = {k: getattr(e, k) for k in _EVENT_FIELDS if getattr(e, k) is not None}
    if e.players:
        data["players"] = list(e.players)
    if e.dice:
        data["dice"] = list(e.dice)
    if e.answer is not None:
        data["answer"] = str(e.answer)
    if e.settled is not None:
        data["settled"] = str(e.settled)
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def event_loads(kind: str, game: int, text: str) -> Event:
    d = json.loads(text)
    return Event(
        Kind(kind),
        game,
        player=d.get("player"),
        member=d.get("member"),
        players=tuple(d.get("players", ())),
        dice=tuple(d.get("dice", ())),
        play=d.get("play"),
        answer=None if d.get("answer") is None else Answer(d["answer"]),
        value=d.get("value"),
        points=d.get("points"),
        settled=None if d.get("settled") is None else Settled(d["settled"]),
        winner=d.get("winner"),
    )


__all__ = ["dumps", "event_dumps", "event_loads", "loads", "options_from"]
