#pragma once

// Where a test or benchmark program finds the tree's data files, the goldens
// and the programs it runs. Each program defines the functions it uses in a
// file CMake generates for it (cmake/TrainscopeTestPaths.cmake), so that no
// absolute path is on the command line of the files that use them: ccache
// then reuses their objects in a clone in another folder.
namespace trainscope::test_paths {
const char* sourceDir();          // the source tree
const char* testDataDir();        // tests/data
const char* goldenDir();          // tests/golden, the checked-in expected outputs
const char* goldenOutDir();       // <build>/golden, what the golden tests produced
const char* cliPath();            // the trainscope-cli the tests run
const char* scriptedLauncher();   // tests/tsan's stand-in for trainscope-cli's ranks
const char* benchWorkDir();       // a benchmark's scratch folder in the build tree
const char* staleBackendModule(); // a LibTorch module built from other sources (widget tests)
} // namespace trainscope::test_paths

#define TRAINSCOPE_SOURCE_DIR (::trainscope::test_paths::sourceDir())
#define TRAINSCOPE_TEST_DATA_DIR (::trainscope::test_paths::testDataDir())
#define TRAINSCOPE_GOLDEN_DIR (::trainscope::test_paths::goldenDir())
#define TRAINSCOPE_GOLDEN_OUT_DIR (::trainscope::test_paths::goldenOutDir())
#define TRAINSCOPE_CLI_PATH (::trainscope::test_paths::cliPath())
#define TRAINSCOPE_SCRIPTED_LAUNCHER (::trainscope::test_paths::scriptedLauncher())
#define TRAINSCOPE_BENCH_WORK_DIR (::trainscope::test_paths::benchWorkDir())
#define TRAINSCOPE_STALE_BACKEND_MODULE (::trainscope::test_paths::staleBackendModule())
