// The home every test process has (see Tests/OCEQTestHome/home.c): HOME and the XDG folders point into a
// fresh folder made before main and removed at exit, so no test, and no oceq a test starts, reads or writes
// the real ~/.cache, ~/.config or ~/.local/state.

import OCEQTestHome

/// This test process's home folder.
public enum TestHome {
    /// The folder HOME points at (under `$TMPDIR`).
    public static var path: String { String(cString: oceq_test_home()) }
}
