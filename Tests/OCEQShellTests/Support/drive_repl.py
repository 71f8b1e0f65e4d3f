# Drives the oceq REPL in a pseudo-terminal for EndToEndTests: argv[1] is the binary, argv[2] the
# working directory. Prints what the terminal showed after each step, separated by lines of '=====',
# and finally the exit status.
import os, pty, select, struct, sys, time, fcntl, termios

binary, directory = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.chdir(directory)
    os.environ["TERM"] = "xterm"
    os.environ["PAGER"] = "cat"
    os.execv(binary, ["oceq", "--color", "never"])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 120, 0, 0))


def read(seconds, until=None):
    out = b""
    end = time.time() + seconds
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
            if until and out.endswith(until):
                break
    return out.decode(errors="replace")


prompt = b"OCEGettingStarted> "
steps = [
    (None, 30),
    (b"count type in (OCEGettingStartedAuthor,\r", 30),
    (b"OCEGettingStartedTopic)\r", 30),
    (b"list type=Image (name ~ ", 30),
    (b"\x03", 30),
    (b"get @9\r", 30),
    (b"\x04", 20),
]
for data, seconds in steps:
    if data:
        os.write(fd, data)
    # Wait for what should show: the prompt after a statement, the echo of a half-typed line; after
    # Ctrl-D the read ends when oceq does (the terminal closes).
    until = {
        b"count type in (OCEGettingStartedAuthor,\r": b"(> ",
        b"list type=Image (name ~ ": b"name ~ ",
        b"\x04": None,
    }.get(data, prompt)
    print(read(seconds, until=until))
    print("=====")
# Never hang the test run: wait up to 20 s for the REPL to leave, then kill it.
def wait(seconds):
    end = time.time() + seconds
    while time.time() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        read(0.1)
    return None


status = wait(20)
if status is None:
    os.kill(pid, 9)
    status = os.waitpid(pid, 0)[1]
print("status", os.waitstatus_to_exitcode(status))
