"""Every word a player reads, built from facts, in the reader's language.

The session, the turn rules and the engine hand over facts (a report and its steps, a typed
refusal or an error code and its parameters, a record); this package is the one place that
turns them into sentences, each marked for translation with ``_``/``N_`` (see
:mod:`bot.i18n`). Each vocabulary is written
once: result kinds, points, dice, score lines, the next step, cube words, statuses.

One rule for callers:

- *Sentences* (a report line, an error, a refusal) are built as :class:`~bot.i18n.Text`:
  facts still waiting for a reader. The functions named ``*_line``, ``*_words`` and
  :func:`engine_error` return one; the front end renders it with
  ``say(text, language)``.
- *Pages* the front ends show whole (``next_step``, ``history_text``, ``stats_text``,
  ``hint_text``, ``analysis_text``, ``dice_text`` ...) take the reader's ``language``
  (a language code or a Discord locale; English when omitted) and return finished ``str``.

Names are always parameters, never part of a message id, and are formatted by the caller's
``display``/``mention`` (escaped for Discord, plain in a terminal). The move notation,
Position IDs and numbers stay as players write them. Nothing here knows about Discord:
mentions come from a callback the front end passes (``<@id>`` on Discord, the plain name in
a terminal).

The package: :mod:`~bot.present.words` (the vocabulary), :mod:`~bot.present.story` (a
report told line by line with :func:`tell`, the next step, history),
:mod:`~bot.present.refusals` (every refusal, the session's and the engine's, as a sentence:
:func:`refusal`), :mod:`~bot.present.labels` (the pictures' words),
:mod:`~bot.present.pages` (records, help, hints, analysis, dice), :mod:`~bot.present.club`
(captions, reminders, a member's games, settings, dice checks) and
:mod:`~bot.present.notices` (the front ends' own lines: notices, button labels, the
terminal's words). Import from ``bot.present`` or the module; the split is only for reading.
"""

from bot.present.labels import board_words, chart_labels
from bot.present.pages import (
    HELP,
    HELP_TEXT,
    RATING_WORDS,
    SURPRISE_WORDS,
    THIS_SERVER,
    analysis_text,
    computer_record_text,
    dice_text,
    elsewhere_line,
    help_text,
    hint_text,
    leaderboard_lines,
    luck_lines,
    stats_text,
)
from bot.present.refusals import (
    ENGINE_SENTENCES,
    REFUSALS,
    engine_error,
    engine_sentence,
    refusal,
)
from bot.present.story import (
    FORFEIT_NOT_RATED,
    challenge_lines,
    commitment_line,
    computer_match_line,
    forfeit_match_line,
    history_lines,
    history_text,
    match_won_line,
    next_game_line,
    next_step,
    next_step_line,
    opening_line,
    result_line,
    reveal_line,
    score_line,
    tell,
)
from bot.present.words import (
    CUBE_ACTION_WORDS,
    LEVEL_WORDS,
    MESSAGE_LIMIT,
    RESULT_WORDS,
    Mention,
    cube_action_words,
    dice_words,
    fit,
    level_words,
    match_words,
    minutes_words,
    perspective,
    plain,
    points_words,
    rolls_words,
)

__all__ = [
    "CUBE_ACTION_WORDS",
    "ENGINE_SENTENCES",
    "FORFEIT_NOT_RATED",
    "HELP",
    "HELP_TEXT",
    "LEVEL_WORDS",
    "MESSAGE_LIMIT",
    "RATING_WORDS",
    "REFUSALS",
    "RESULT_WORDS",
    "SURPRISE_WORDS",
    "THIS_SERVER",
    "Mention",
    "analysis_text",
    "board_words",
    "challenge_lines",
    "chart_labels",
    "commitment_line",
    "computer_match_line",
    "computer_record_text",
    "cube_action_words",
    "dice_text",
    "dice_words",
    "elsewhere_line",
    "engine_error",
    "engine_sentence",
    "fit",
    "forfeit_match_line",
    "help_text",
    "hint_text",
    "history_lines",
    "history_text",
    "leaderboard_lines",
    "level_words",
    "luck_lines",
    "match_won_line",
    "match_words",
    "minutes_words",
    "next_game_line",
    "next_step",
    "next_step_line",
    "opening_line",
    "perspective",
    "plain",
    "points_words",
    "refusal",
    "result_line",
    "reveal_line",
    "rolls_words",
    "score_line",
    "stats_text",
    "tell",
]
