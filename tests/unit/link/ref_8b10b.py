"""An independent 8b/10b model (IEEE 802.3 clause 36, Widmer-Franaszek), table-driven
from the standard's 5b/6b and 3b/4b tables, for the tests of rtl/link.

A code-group is an int with bit 0 = a (first on the wire) ... bit 9 = j; a running
disparity is -1 (RD-) or +1 (RD+). The tables hold both columns as the standard prints
them (RD- form, RD+ form; sub-blocks written abcdei and fghj)."""

from __future__ import annotations

from enum import Enum

# 5b/6b: x -> (RD- form, RD+ form)
TABLE_6B: dict[int, tuple[str, str]] = {
    0: ("100111", "011000"),
    1: ("011101", "100010"),
    2: ("101101", "010010"),
    3: ("110001", "110001"),
    4: ("110101", "001010"),
    5: ("101001", "101001"),
    6: ("011001", "011001"),
    7: ("111000", "000111"),
    8: ("111001", "000110"),
    9: ("100101", "100101"),
    10: ("010101", "010101"),
    11: ("110100", "110100"),
    12: ("001101", "001101"),
    13: ("101100", "101100"),
    14: ("011100", "011100"),
    15: ("010111", "101000"),
    16: ("011011", "100100"),
    17: ("100011", "100011"),
    18: ("010011", "010011"),
    19: ("110010", "110010"),
    20: ("001011", "001011"),
    21: ("101010", "101010"),
    22: ("011010", "011010"),
    23: ("111010", "000101"),
    24: ("110011", "001100"),
    25: ("100110", "100110"),
    26: ("010110", "010110"),
    27: ("110110", "001001"),
    28: ("001110", "001110"),
    29: ("101110", "010001"),
    30: ("011110", "100001"),
    31: ("101011", "010100"),
}
K28_6B = ("001111", "110000")

# 3b/4b data: y -> (RD- form, RD+ form); D.x.P7 is the primary form of y = 7
TABLE_4B: dict[int, tuple[str, str]] = {
    0: ("1011", "0100"),
    1: ("1001", "1001"),
    2: ("0101", "0101"),
    3: ("1100", "0011"),
    4: ("1101", "0010"),
    5: ("1010", "1010"),
    6: ("0110", "0110"),
    7: ("1110", "0001"),
}
A7_4B = ("0111", "1000")  # D.x.A7
# 3b/4b control: y -> (RD- form, RD+ form)
TABLE_4B_K: dict[int, tuple[str, str]] = {
    0: ("1011", "0100"),
    1: ("0110", "1001"),
    2: ("1010", "0101"),
    3: ("1100", "0011"),
    4: ("1101", "0010"),
    5: ("0101", "1010"),
    6: ("1001", "0110"),
    7: ("0111", "1000"),
}
# the 12 control codes, as bytes HGF EDCBA
K_CODES = [28 | y << 5 for y in range(8)] + [23 | 7 << 5, 27 | 7 << 5, 29 | 7 << 5, 30 | 7 << 5]
# the alternate form: RD- with x in (17, 18, 20), RD+ with x in (11, 13, 14)
A7_WHEN = {-1: (17, 18, 20), 1: (11, 13, 14)}


def rd_after(sub: str, rd: int) -> int:
    """Running disparity after a sub-block (clause 36.2.4.4)."""
    ones = sub.count("1")
    if ones * 2 > len(sub) or sub in ("000111", "0011"):
        return 1
    if ones * 2 < len(sub) or sub in ("111000", "1100"):
        return -1
    return rd


def bits_to_code(bits: str) -> int:
    """'abcdeifghj' -> code-group (bit 0 = a)."""
    return sum(1 << i for i, c in enumerate(bits) if c == "1")


def code_to_bits(code: int) -> str:
    return "".join("1" if code >> i & 1 else "0" for i in range(10))


def encode(byte: int, k: bool, rd: int) -> tuple[int, int]:
    """(code-group, running disparity after) of D.x.y or K.x.y in disparity ``rd``."""
    x, y = byte & 31, byte >> 5
    col = 0 if rd < 0 else 1
    if k:
        assert byte in K_CODES, f"K.{x}.{y} is no control code"
    sub6 = (K28_6B if k and x == 28 else TABLE_6B[x])[col]
    rd6 = rd_after(sub6, rd)
    col6 = 0 if rd6 < 0 else 1
    if k:
        sub4 = TABLE_4B_K[y][col6]
    elif y == 7 and x in A7_WHEN[rd6]:
        sub4 = A7_4B[col6]
    else:
        sub4 = TABLE_4B[y][col6]
    return bits_to_code(sub6 + sub4), rd_after(sub4, rd6)


SYMBOLS = [(b, False) for b in range(256)] + [(b, True) for b in K_CODES]

# every valid code-group in each disparity: code -> (byte, k)
VALID: dict[int, dict[int, tuple[int, bool]]] = {-1: {}, 1: {}}
for _rd in (-1, 1):
    for _b, _k in SYMBOLS:
        _c, _ = encode(_b, _k, _rd)
        assert _c not in VALID[_rd], f"{code_to_bits(_c)} twice"
        VALID[_rd][_c] = (_b, _k)


class Verdict(Enum):
    VALID = 0
    DISP_ERR = 1
    CODE_ERR = 2


def decode(code: int, rd: int) -> tuple[Verdict, int | None, bool | None, int]:
    """(verdict, byte, k, running disparity after) of a received code-group. The byte and
    k are None for a code violation; the disparity follows the received sub-blocks."""
    bits = code_to_bits(code)
    rd_out = rd_after(bits[6:], rd_after(bits[:6], rd))
    if code in VALID[rd]:
        b, k = VALID[rd][code]
        return Verdict.VALID, b, k, rd_out
    if code in VALID[-rd]:
        b, k = VALID[-rd][code]
        return Verdict.DISP_ERR, b, k, rd_out
    return Verdict.CODE_ERR, None, None, rd_out


def name(byte: int, k: bool) -> str:
    return f"{'K' if k else 'D'}{byte & 31}.{byte >> 5}"


# the standard's printed values of a few code-groups (abcdei fghj)
assert encode(0xBC, True, -1)[0] == bits_to_code("0011111010")  # K28.5 RD-
assert encode(0xBC, True, 1)[0] == bits_to_code("1100000101")  # K28.5 RD+
assert encode(0x00, False, -1)[0] == bits_to_code("1001110100")  # D0.0 RD-
assert encode(0xF1, False, -1)[0] == bits_to_code("1000110111")  # D17.7 RD- (A7)
assert encode(0xEB, False, 1)[0] == bits_to_code("1101001000")  # D11.7 RD+ (A7)
assert encode(0xFC, True, -1)[0] == bits_to_code("0011111000")  # K28.7 RD-
assert encode(0xF7, True, -1)[0] == bits_to_code("1110101000")  # K23.7 RD-
assert len(VALID[-1]) == len(VALID[1]) == 268
