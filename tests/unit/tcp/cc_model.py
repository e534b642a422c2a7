"""A reference model of a TCP sender's congestion control, written from the RFCs: slow
start and congestion avoidance (RFC 5681 section 3.1, with the byte counting of its
equation 3 alternative: one SMSS per cwnd bytes acknowledged), fast retransmit and NewReno
fast recovery (RFC 6582 section 3.2, leaving the recovery with its option 1:
min(ssthresh, max(FlightSize, SMSS) + SMSS)), the loss window after a time-out, and the
initial window (RFC 5681 section 3.1). Sequence numbers are offsets from the first data
byte. The sender sends from snd_nxt while min(cwnd, rwnd) allows, in segments of at
most SMSS, from a send buffer of ``buf`` bytes."""

from __future__ import annotations


def initial_window(smss: int) -> int:
    if smss > 2190:
        return 2 * smss
    if smss > 1095:
        return 3 * smss
    return 4 * smss


class NewRenoSender:
    def __init__(self, smss: int, rwnd: int, buf: int, total: int) -> None:
        self.smss = smss
        self.rwnd = rwnd
        self.buf = buf
        self.total = total  # bytes the application gives
        self.cwnd = initial_window(smss)
        self.ssthresh = 0xFFFF
        self.bytes_acked = 0
        self.una = self.nxt = self.max = 0
        self.dups = 0
        self.inrec = False
        self.recover = 0
        self.cuts = 0

    def _cut(self) -> int:
        """ssthresh after a loss: max(FlightSize / 2, 2 SMSS) (RFC 5681 equation 4)."""
        return max((self.max - self.una) // 2, 2 * self.smss)

    def ack(self, ack: int) -> list[tuple[int, int]]:
        """A cumulative ACK; returns the segments (offset, length) the sender sends."""
        out: list[tuple[int, int]] = []
        if ack > self.una:
            acked = ack - self.una
            self.una = ack
            self.nxt = max(self.nxt, ack)
            self.dups = 0
            if self.inrec:
                if ack < self.recover:  # partial ACK: resend the next segment, deflate
                    out.append((self.una, min(self.smss, self.max - self.una)))
                    c = max(self.cwnd - acked, 0) + (self.smss if acked >= self.smss else 0)
                    self.cwnd = max(c, self.smss)
                else:
                    self.inrec = False
                    fl = self.max - ack
                    self.cwnd = min(self.ssthresh, max(fl, self.smss) + self.smss)
                    self.bytes_acked = 0
            elif self.cwnd < self.ssthresh:
                self.cwnd += min(acked, self.smss)
            else:
                self.bytes_acked += acked
                if self.bytes_acked >= self.cwnd:
                    self.bytes_acked -= self.cwnd
                    self.cwnd += self.smss
        elif ack == self.una and self.max != self.una:
            self.dups += 1
            if self.dups == 3 and not self.inrec:
                self.ssthresh = self._cut()
                self.cwnd = self.ssthresh + 3 * self.smss
                self.bytes_acked = 0
                self.inrec = True
                self.recover = self.max
                self.cuts += 1
                out.append((self.una, min(self.smss, self.max - self.una)))
            elif self.inrec:
                self.cwnd += self.smss
        return out + self.send()

    def timeout(self, first: bool) -> list[tuple[int, int]]:
        """The retransmission timer expired: cwnd = 1 SMSS (the loss window), ssthresh
        cut on the segment's first time-out only, go back to snd_una."""
        if first:
            self.ssthresh = self._cut()
            self.cuts += 1
        self.cwnd = self.smss
        self.bytes_acked = 0
        self.inrec = False
        self.dups = 0
        self.nxt = self.una
        return self.send()

    def send(self) -> list[tuple[int, int]]:
        out = []
        end = min(self.total, self.una + self.buf)
        while True:
            usable = self.una + min(self.cwnd, self.rwnd) - self.nxt
            n = min(self.smss, usable, end - self.nxt)
            if n <= 0:
                return out
            out.append((self.nxt, n))
            self.nxt += n
            self.max = max(self.max, self.nxt)
