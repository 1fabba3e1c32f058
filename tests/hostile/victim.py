"""Not hostile: a well-behaved bot's stand-in. Leaves notes in its working
folder, listens on the Unix socket given as argument, says "listening",
accepts connections until it is killed.

Usage: victim.py SOCKET_PATH
"""

import socket
import sys

with open("notes.txt", "w") as notes:
    notes.write("my secret strategy\n")
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(sys.argv[1])
server.listen(8)
print("listening", flush=True)
while True:
    conn, _ = server.accept()
    conn.close()
