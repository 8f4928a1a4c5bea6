"""The kinds of rulings and the decisions about moved or scattered stones: the names the
ledger, the requests (:mod:`duiyi.referee.requests`), the server's API and the web forms share.

>>> RulingKind("stones_restored").name
'STONES_RESTORED'
"""

from __future__ import annotations

import enum

__all__ = ["Decision", "RulingKind"]


class RulingKind(enum.Enum):
    """What the arbiter ruled."""

    WARNING = "warning"  # 警告 (Go §24): one stone off the count; the second loses
    VIOLATION = "violation"  # 违例 (Gomoku §2.20(2), §12): the second loses
    TIME_PENALTY = "time_penalty"  # 罚时 (Gomoku §2.20(1), §12.3(3))
    VOID_MOVE = "void_move"  # 着手无效 (Go §17.2, §18.3, §19)
    OVERTIME_PASS = "overtime_pass"  # Go §22.5: over the last minute, a pass on request
    COLOUR_CORRECTION = "colour_correction"  # 拿错黑白 (Go §17.1, Gomoku §5.2)
    MOVED_STONES = "moved_stones"  # 移子 (Go §17.5, Gomoku §4.2)
    SCATTERED = "scattered"  # 棋局散乱 (Go §17.6, Gomoku §4.2)
    FORFEIT = "forfeit"  # 判负 (Go §23, Gomoku §10.1(3), §12.3(2)C)
    DOUBLE_FORFEIT = "double_forfeit"  # 判双方负 (Go §23.1, Gomoku §12.3(2)C)
    NO_SHOW = "no_show"  # 迟到超时 / 弃权 (Go §22.1-3, Gomoku §8.5)
    WITHDRAWAL = "withdrawal"  # 中途退出 (Go §15.2, §28; Gomoku §10.1(3)D, §18.5)
    CLOCK_ADJUSTMENT = "clock_adjustment"  # a replaced or faulty clock (Go §22.8, Gomoku §8.7)
    DISQUALIFICATION = "disqualification"  # 取消比赛资格 (Gomoku §2.20(4), §12.3(2)D)
    DISCIPLINARY_LOSS = "disciplinary_loss"  # 纪律判负 (Gomoku §2.20(3))
    BOTH_FLAGS = "both_flags"  # both flags down, order unknown: draw (Gomoku §10.2(4))
    LEAVE_SEAT = "leave_seat"  # permission to leave the seat in byo-yomi (Go §22.7)
    DROPPED_STONE = "dropped_stone"  # 棋子不慎掉落: picked up, played elsewhere (Go §17.3)
    IRREGULAR_ACCEPTED = "irregular_accepted"  # 接受犯规行为: the opponent accepts (Gomoku §6.1)
    STONE_REPLACED = "stone_replaced"  # 推盘/拔子: back to the first point (Gomoku §6.1(5)-(6))
    STONES_RESTORED = "stones_restored"  # 误提有气之子: put back on the board (Go §18.1)
    COIN_TOSS = "coin_toss"  # 挑边器: the arbiter's coin, one player calls (Gomoku §5.3(2))
    COLOURS_CHOSEN = "colours_chosen"  # the call's winner chooses (Gomoku §5.3(2) A, B, C)
    APPEAL = "appeal"  # 申诉 against a ruling (Gomoku §8.11, §13.1)
    APPEAL_DECIDED = "appeal_decided"  # the chief arbiter's or committee's answer (§13)


class Decision(enum.Enum):
    """What the arbiter decided about moved or scattered stones (Go §17.5-6, Gomoku §4.2)."""

    RESTORE = "restore"  # 挪回原处 / 挪至合理点
    VALID = "valid"  # 移子有效
    RESUME = "resume"  # 复盘续赛 (the position was rebuilt)
    DRAW = "draw"  # 和棋
    REPLAY = "replay"  # 重赛 / 重下
    BOTH_LOSE = "both_lose"  # 双方均负 (Go only)
    OFFENDER_LOSES = "offender_loses"  # deliberate, or a player's scatter not rebuilt
