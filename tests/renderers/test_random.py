"""Hundreds of random states and names render without raising."""

from __future__ import annotations

import random

from bot.engine import Game, MatchOptions, Phase, ResultKind
from bot.engine.errors import EngineError
from renderers import THEMES, compose, render_board
from tests.renderers.support import decode

ALPHABETS = [
    (0x20, 0x7E),  # ASCII
    (0xC0, 0x24F),  # Latin accents
    (0x300, 0x36F),  # combining marks
    (0x370, 0x3FF),  # Greek
    (0x400, 0x4FF),  # Cyrillic
    (0x590, 0x5FF),  # Hebrew
    (0x600, 0x6FF),  # Arabic
    (0x900, 0x97F),  # Devanagari (no shipped font: dropped)
    (0xE00, 0xE7F),  # Thai (no shipped font: dropped)
    (0x2000, 0x206F),  # punctuation, invisible and bidi controls
    (0x3040, 0x30FF),  # kana
    (0x4E00, 0x9FFF),  # CJK
    (0xAC00, 0xD7A3),  # Hangul
    (0xFE00, 0xFE0F),  # variation selectors
    (0x1F300, 0x1FAFF),  # emoji
    (0xE0000, 0xE007F),  # tags
    (0x10FFF0, 0x10FFFD),  # private use: no glyph anywhere
]


def random_name(rng: random.Random) -> str:
    length = rng.choice([0, 1, 3, 8, 16, 32, 32, 100])
    chars = []
    for _ in range(length):
        lo, hi = rng.choice(ALPHABETS)
        chars.append(chr(rng.randint(lo, hi)))
    return "".join(chars)


def random_step(game: Game, rng: random.Random) -> Game:
    """One random legal action (the engine refuses the illegal ones we try)."""
    try:
        if game.resignation is not None:
            return game.accept_resignation() if rng.random() < 0.5 else game.reject_resignation()
        if game.phase is Phase.OPENING:
            return game.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        if game.phase is Phase.ROLL:
            if game.can_double() and rng.random() < 0.15:
                return game.double()
            if rng.random() < 0.02:
                return game.offer_resignation(game.on_roll, rng.choice(list(ResultKind)))
            return game.roll((rng.randint(1, 6), rng.randint(1, 6)))
        if game.phase is Phase.DOUBLED:
            return game.take() if rng.random() < 0.8 else game.drop()
        if game.phase is Phase.MOVE:
            plays = list(game.legal_plays())
            if not plays or not plays[0].moves:
                return game.pass_turn()
            return game.play(rng.choice(plays))
    except EngineError:
        pass
    return game


def random_states(rng: random.Random, count: int) -> list[tuple[Game, tuple[str, str]]]:
    """``count`` states from random games: every phase, cube, score and result."""
    states: list[tuple[Game, tuple[str, str]]] = []
    while len(states) < count:
        length = rng.choice([0, 1, 3, 5, 7, 25])
        options = MatchOptions(length=length)
        game = Game.new(options)
        if length > 1 and rng.random() < 0.3:
            score = (length - 1, rng.randint(0, length - 2))
            game = Game(options=options, score=score, crawford=rng.random() < 0.5)
        names = (random_name(rng), random_name(rng))
        for _ in range(400):
            game = random_step(game, rng)
            if rng.random() < 0.12 or game.phase is Phase.OVER:
                states.append((game, names))
            if game.phase is Phase.OVER:
                break
    return states[:count]


def test_random_games_render_from_both_sides_in_every_theme():
    rng = random.Random(20261121)
    themes = list(THEMES.values())
    states = random_states(rng, 300)
    assert any(game.phase is Phase.OVER for game, _ in states)
    assert any(game.phase is Phase.DOUBLED for game, _ in states)
    for index, (game, names) in enumerate(states):
        perspective, theme = index % 2, themes[index // 2 % 2]
        if index % 10 == 0:  # the whole path, PNG included, for a sample
            png = render_board(game, perspective=perspective, names=names, theme=theme)
            assert decode(png).width == 1000
        elif index % 7 == 0:  # a play that does not belong to this position: still no error
            stranger = states[index - 1][0].last_play
            compose(game, perspective=perspective, names=names, theme=theme, last_play=stranger)
        else:
            compose(game, perspective=perspective, names=names, theme=theme)
