"""wirecore: PC tools for the wirecore FPGA network stack."""

__version__ = "0.1.0"
