"""PC side of wirecore data acquisition: payload format, fast receiver, analysis, plots,
and a software stand-in for the FPGA generator and echo (for testing a PC on loopback)."""
