"""Hostile bot: answers its first decision with a valid action wrapped in a
message of 8 MiB (an unknown field the size of the referee's whole answer
budget eight times over), then answers legally as if nothing happened."""

from raw_bot import decision, serve

HUGE = 8 * 1024 * 1024
TAG = bytes([(127 << 3 | 2) & 0x7F | 0x80, (127 << 3 | 2) >> 7])  # field 127, length-delimited


def varint(value):
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


sent = False


def answer(start, decide):
    global sent
    message = decision(decide.request_id, decide.legal_actions[0])
    if sent:
        return message
    sent = True
    return message + TAG + varint(HUGE) + b"\0" * HUGE


serve("huge-message", answer)
