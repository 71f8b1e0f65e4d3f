// Every test process gets a home of its own before anything runs (see home.c).
#pragma once

/// The fresh folder this test process uses as HOME (and under which its XDG folders are), made before main.
const char *oceq_test_home(void);
