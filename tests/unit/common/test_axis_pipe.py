"""axis_pipe: register slice. Random frames with random pauses on both sides come out
identical; with no pauses it moves one beat per cycle (cocotbext-axi on both sides)."""

from __future__ import annotations

from pathlib import Path

import cocotb
import pytest
from fifo_tb import check_full_throughput, check_random_backpressure


@cocotb.test()
async def random_backpressure(dut) -> None:
    await check_random_backpressure(dut, ((0.3, 0.3), (0.0, 0.7), (0.7, 0.0), (0.5, 0.5)))


@cocotb.test()
async def full_throughput(dut) -> None:
    await check_full_throughput(dut)


@pytest.mark.parametrize("data_w", [8, 64])
def test_axis_pipe(data_w: int) -> None:
    import cocotb_run

    cocotb_run.run(
        "axis_pipe", "test_axis_pipe", parameters={"DATA_W": data_w}, test_dir=Path(__file__).parent
    )
