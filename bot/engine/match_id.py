"""GNU Backgammon's 12-character Match ID, encoded and decoded bit for bit.

Together with the Position ID it lets a player paste the exact game state into GNU
Backgammon or eXtreme Gammon for analysis.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from bot.engine.errors import EngineErrorCode as Code
from bot.engine.errors import InvalidIdError, InvalidPositionError

# GNU Backgammon's game states.
GAME_NONE = 0
GAME_PLAYING = 1
GAME_OVER = 2
GAME_RESIGNED = 3
GAME_DROP = 4

# (field, bit width) in order from bit 0.
_LAYOUT = (
    ("cube_log2", 4),
    ("cube_owner", 2),
    ("on_roll", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("double_offered", 1),
    ("resigned", 2),
    ("die1", 3),
    ("die2", 3),
    ("match_length", 15),
    ("score0", 15),
    ("score1", 15),
    ("no_jacoby", 1),
)


@dataclass(frozen=True, slots=True)
class MatchIdFields:
    """What a Match ID says. ``cube_owner`` is -1 when the cube is centred."""

    match_length: int
    score: tuple[int, int]
    cube: int
    cube_owner: int
    on_roll: int
    turn: int
    crawford: bool
    double_offered: bool
    resigned: int
    dice: tuple[int, int]
    game_state: int
    jacoby: bool = False

    def encode(self) -> str:
        """The 12-character Match ID.

        >>> MatchIdFields(0, (0, 0), 1, -1, 0, 0, False, False, 0, (0, 0), 1).encode()
        'MAEAAAAAAAAE'
        """
        if self.cube < 1 or self.cube & (self.cube - 1):
            raise InvalidPositionError(
                f"the cube must be a power of two, not {self.cube}",
                Code.CUBE_NOT_POWER_OF_TWO,
                cube=self.cube,
            )
        high, low = max(self.dice), min(self.dice)
        values = {
            "cube_log2": self.cube.bit_length() - 1,
            "cube_owner": 3 if self.cube_owner < 0 else self.cube_owner,
            "on_roll": self.on_roll,
            "crawford": int(self.crawford),
            "game_state": self.game_state,
            "turn": self.turn,
            "double_offered": int(self.double_offered),
            "resigned": self.resigned,
            "die1": high,
            "die2": low,
            "match_length": self.match_length,
            "score0": self.score[0],
            "score1": self.score[1],
            "no_jacoby": int(self.match_length > 0 or not self.jacoby),
        }
        bits = shift = 0
        for name, width in _LAYOUT:
            value = values[name]
            if not 0 <= value < 1 << width:
                raise InvalidPositionError(
                    f"{name}={value} does not fit a Match ID",
                    Code.MATCH_ID_FIELD,
                    field=name,
                    value=value,
                )
            bits |= value << shift
            shift += width
        return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")

    @classmethod
    def decode(cls, match_id: str) -> MatchIdFields:
        """Read a Match ID back into its fields; :class:`InvalidIdError` if it is not one.

        Any 12 valid characters decode: whether the fields describe a state a game can be in
        is for the reader to check (:class:`~bot.engine.record.PositionRecord` does).
        """
        text = match_id.strip()
        if len(text) != 12:
            raise InvalidIdError(
                f"{match_id!r} is not a 12-character Match ID", Code.MATCH_ID_LENGTH, text=match_id
            )
        try:
            raw = base64.b64decode(text, validate=True)
        except ValueError as exc:
            raise InvalidIdError(
                f"{match_id!r} is not a valid Match ID", Code.MATCH_ID_INVALID, text=match_id
            ) from exc
        if len(raw) != 9:  # padding inside the 12 characters
            raise InvalidIdError(
                f"{match_id!r} is not a valid Match ID", Code.MATCH_ID_INVALID, text=match_id
            )
        bits = int.from_bytes(raw, "little")
        values: dict[str, int] = {}
        shift = 0
        for name, width in _LAYOUT:
            values[name] = bits >> shift & ((1 << width) - 1)
            shift += width
        owner = values["cube_owner"]
        return cls(
            match_length=values["match_length"],
            score=(values["score0"], values["score1"]),
            cube=1 << values["cube_log2"],
            cube_owner=-1 if owner == 3 else owner,
            on_roll=values["on_roll"],
            turn=values["turn"],
            crawford=bool(values["crawford"]),
            double_offered=bool(values["double_offered"]),
            resigned=values["resigned"],
            dice=(values["die1"], values["die2"]),
            game_state=values["game_state"],
            jacoby=values["match_length"] == 0 and not values["no_jacoby"],
        )
