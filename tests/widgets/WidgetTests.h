// The widget tests are one program, trainscope_widget_tests: each test_*.cpp
// registers its QtTest class under its file's name with
// TRAINSCOPE_WIDGET_TEST, and ctest runs `trainscope_widget_tests test_charts`
// (QtTest's own options after the name), one process per class as when each
// file was a program of its own. One program compiles its files in a few
// unity batches and links once, where 24 programs parsed Qt 24 times and
// linked 24 times (CI time, #62).
#pragma once

#include <QtTest>

namespace trainscope::widget_tests {

// Runs one QtTest class over QtTest's argc/argv, inside the QApplication that
// main makes (QTEST_MAIN's steps).
using Runner = int (*)(int argc, char** argv);

// Registers `run` under `name`; returns true so that a namespace-scope
// constant can call it before main.
bool add(const char* name, Runner run);

} // namespace trainscope::widget_tests

// In place of QTEST_MAIN(TestClass): Name is the file's name (test_charts).
#define TRAINSCOPE_WIDGET_TEST(Name, TestClass)                                                    \
    namespace {                                                                                    \
    int run_##Name(int argc, char** argv) {                                                        \
        TestClass test;                                                                            \
        QTEST_SET_MAIN_SOURCE_PATH                                                                 \
        return QTest::qExec(&test, argc, argv);                                                    \
    }                                                                                              \
    [[maybe_unused]] const bool registered_##Name =                                                \
        trainscope::widget_tests::add(#Name, run_##Name);                                          \
    }
