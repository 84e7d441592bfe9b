// main of trainscope_widget_tests (WidgetTests.h): `trainscope_widget_tests
// NAME [QtTest options]` runs the class NAME's file registered; without a
// known name it lists them and exits 2.
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <QApplication>

#include "WidgetTests.h"

namespace trainscope::widget_tests {
namespace {

std::map<std::string, Runner>& registry() {
    static std::map<std::string, Runner> tests;
    return tests;
}

int usage(const char* program, const char* why) {
    std::fprintf(stderr, "%s: %s; one of:\n", program, why);
    for (const auto& [name, run] : registry())
        std::fprintf(stderr, "  %s\n", name.c_str());
    return 2;
}

} // namespace

bool add(const char* name, Runner run) {
    registry().emplace(name, run);
    return true;
}

} // namespace trainscope::widget_tests

int main(int argc, char** argv) {
    using namespace trainscope::widget_tests;
    if (argc < 2) return usage(argv[0], "name the test to run");
    const auto test = registry().find(argv[1]);
    if (test == registry().end())
        return usage(argv[0], (std::string("no test named '") + argv[1] + "'").c_str());
    // QApplication and QtTest read every argument after the program's name
    // as their own: the test's name goes.
    std::vector<char*> args{argv[0]};
    args.insert(args.end(), argv + 2, argv + argc);
    int count = static_cast<int>(args.size());
    // What QTEST_MAIN does before it runs its class.
    QApplication app(count, args.data());
    app.setAttribute(Qt::AA_Use96Dpi, true);
    return test->second(count, args.data());
}
