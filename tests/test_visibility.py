"""The rule of who may see a match (bot.core.visibility), and Discord's permission arithmetic as
its documentation gives it (topics/permissions: base, then @everyone's, roles' and the
member's overwrites), on raw numbers as the web board gets them from the REST API."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.core.records import MatchRow, Status
from bot.core.visibility import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    READ,
    READ_MESSAGE_HISTORY,
    VIEW_CHANNEL,
    Overwrite,
    OverwriteKind,
    base_permissions,
    can_read,
    channel_permissions,
    deciding_channel,
    everyone_can_read,
    may_see,
)
from bot.engine import MatchOptions
from tests.channel_readers import Readers

GUILD, OWNER, ALICE, MOD_ROLE, MUTED_ROLE = 1, 2, 3, 40, 41
ROLE = OverwriteKind.ROLE
MEMBER = OverwriteKind.MEMBER


def member_perms(
    roles: list[int], overwrites: list[Overwrite], everyone: int = READ, member: int = ALICE
) -> int:
    role_permissions = {GUILD: everyone, MOD_ROLE: 1 << 13, MUTED_ROLE: 0}
    base = base_permissions(
        guild_id=GUILD,
        owner_id=OWNER,
        role_permissions=role_permissions,
        member_id=member,
        member_roles=roles,
    )
    return channel_permissions(
        base, guild_id=GUILD, member_id=member, member_roles=roles, overwrites=overwrites
    )


def test_the_owner_and_administrators_see_everything() -> None:
    hide = [Overwrite(GUILD, ROLE, 0, VIEW_CHANNEL)]
    assert member_perms([], hide, member=OWNER) == ALL_PERMISSIONS
    admin = base_permissions(
        guild_id=GUILD,
        owner_id=OWNER,
        role_permissions={GUILD: 0, 7: ADMINISTRATOR},
        member_id=ALICE,
        member_roles=[7],
    )
    assert can_read(
        channel_permissions(
            admin, guild_id=GUILD, member_id=ALICE, member_roles=[7], overwrites=hide
        )
    )


@pytest.mark.parametrize(
    ("roles", "overwrites", "reads"),
    [
        ([], [], True),
        ([], [Overwrite(GUILD, ROLE, 0, VIEW_CHANNEL)], False),  # a staff channel
        (
            [MOD_ROLE],
            [Overwrite(GUILD, ROLE, 0, VIEW_CHANNEL), Overwrite(MOD_ROLE, ROLE, VIEW_CHANNEL, 0)],
            True,
        ),
        (
            [],
            [Overwrite(GUILD, ROLE, 0, VIEW_CHANNEL), Overwrite(ALICE, MEMBER, VIEW_CHANNEL, 0)],
            True,
        ),
        # The member's own overwrite comes last: it wins over a role's allow.
        (
            [MOD_ROLE],
            [Overwrite(MOD_ROLE, ROLE, VIEW_CHANNEL, 0), Overwrite(ALICE, MEMBER, 0, VIEW_CHANNEL)],
            False,
        ),
        # Roles' overwrites are combined: an allow of one role beats a deny of another.
        (
            [MOD_ROLE, MUTED_ROLE],
            [
                Overwrite(MUTED_ROLE, ROLE, 0, VIEW_CHANNEL),
                Overwrite(MOD_ROLE, ROLE, VIEW_CHANNEL, 0),
            ],
            True,
        ),
        ([], [Overwrite(GUILD, ROLE, 0, READ_MESSAGE_HISTORY)], False),  # no history: no match
    ],
)
def test_a_members_permissions_follow_discords_order(
    roles: list[int], overwrites: list[Overwrite], reads: bool
) -> None:
    assert can_read(member_perms(roles, overwrites)) is reads


@pytest.mark.parametrize(
    ("everyone", "overwrites", "public"),
    [
        (READ, [], True),
        (READ, [Overwrite(GUILD, ROLE, 0, VIEW_CHANNEL)], False),
        (READ, [Overwrite(MUTED_ROLE, ROLE, 0, VIEW_CHANNEL)], False),  # not every member
        (READ, [Overwrite(ALICE, MEMBER, 0, READ_MESSAGE_HISTORY)], False),
        (READ, [Overwrite(MOD_ROLE, ROLE, 1 << 13, 0)], True),  # an extra right changes nothing
        (0, [], False),  # members see channels only through a role
        (0, [Overwrite(GUILD, ROLE, READ, 0)], True),
    ],
)
def test_a_channel_is_public_only_if_no_member_is_kept_out(
    everyone: int, overwrites: list[Overwrite], public: bool
) -> None:
    assert (
        everyone_can_read(guild_id=GUILD, everyone_permissions=everyone, overwrites=overwrites)
        is public
    )


def row(**changes: object) -> MatchRow:
    base = MatchRow(
        id=1,
        guild_id=GUILD,
        channel_id=100,
        status=Status.FINISHED,
        player_ids=(ALICE, 4),
        player_names=("alice", "bob"),
        options=MatchOptions(),
        rated=False,
        computer_level=None,
        game=None,
        version=1,
        created_at=0.0,
        updated_at=0.0,
        last_action_at=0.0,
        expires_at=None,
        winner=0,
        final_score=None,
        end_reason=None,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


async def test_the_rule_players_always_a_thread_by_its_home_and_dm_games_theirs() -> None:
    readers = Readers(hidden={100, 200}, allowed={200: {9}})
    assert await may_see(readers, row(), ALICE)  # a player, however hidden the channel
    assert not await may_see(readers, row(), 9)
    assert not await may_see(readers, row(), None)
    moved = row(channel_id=300, home_channel_id=200)  # a game that moved to its thread
    assert deciding_channel(moved) == 200 and await may_see(readers, moved, 9)
    dm = row(guild_id=0)
    assert await may_see(readers, dm, ALICE) and not await may_see(Readers(), dm, 9)
