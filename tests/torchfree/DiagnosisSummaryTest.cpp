// analysis/DiagnosisSummary.h: the Overview's findings cite the diagnoses'
// own figures and name the views that explain them.
#include <gtest/gtest.h>

#include "TestPaths.h"
#include "analysis/DiagnosisSummary.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

const DiagnosisFinding* findingTitled(const std::vector<DiagnosisFinding>& findings,
                                      const std::string& start) {
    for (const DiagnosisFinding& f : findings)
        if (f.title.rfind(start, 0) == 0) return &f;
    return nullptr;
}

// HTA's rank 0 of its distributed test traces: idle 53.56 % (321,378 of
// 600,058 us), stream 23's host wait 596,037 us of 596,141, 469 long
// launch delays and 140 short kernels of 602 launches; communication.
TEST(DiagnosisSummary, CitesTheFiguresOfEachDiagnosis) {
    const Trace trace = readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) +
                                            "/distributed_hta/rank-0.json.gz");
    const GpuDiagnoses d = diagnoseGpu(trace);
    const std::vector<DiagnosisFinding> findings = summarizeDiagnoses(trace, d);
    ASSERT_GE(findings.size(), 5u);

    EXPECT_EQ(findings[0].view, "temporal");
    EXPECT_EQ(findings[0].title, "GPU idle 53.6 %");
    EXPECT_NEAR(findings[0].share, 321378.0 / 600058.0, 1e-4);
    EXPECT_NE(findings[0].text.find("321 ms of the 600 ms"), std::string::npos) << findings[0].text;

    EXPECT_EQ(findings[1].view, "idle");
    EXPECT_EQ(findings[1].title, "Most idle time: host wait");
    EXPECT_NE(findings[1].text.find("Stream 23 idled 596 ms in 52 gaps"), std::string::npos)
        << findings[1].text;
    EXPECT_NE(findings[1].text.find("waited for the CPU"), std::string::npos);

    const DiagnosisFinding* delays = findingTitled(findings, "Long launch delays: 469");
    ASSERT_TRUE(delays);
    EXPECT_EQ(delays->view, "launches");
    EXPECT_NE(delays->text.find("469 of 602 launches waited over 100 us"), std::string::npos)
        << delays->text;
    EXPECT_NE(delays->text.find("longest 104 ms"), std::string::npos) << delays->text;
    ASSERT_TRUE(findingTitled(findings, "Short kernels: 140"));
    EXPECT_FALSE(findingTitled(findings, "Slow runtime calls"));

    const DiagnosisFinding* comm = findingTitled(findings, "Communication");
    ASSERT_TRUE(comm);
    EXPECT_EQ(comm->view, "kernel-types");
    // 171,780 + 23,056 + 479 + 12 us of 278,680 us of kernel time.
    EXPECT_NEAR(comm->share, 195327.0 / 278680.0, 1e-3);
}

TEST(DiagnosisSummary, NothingWithoutGpuWork) {
    const Trace trace =
        readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/torch_profiler_sample.json");
    EXPECT_TRUE(summarizeDiagnoses(trace, diagnoseGpu(trace)).empty());
}

} // namespace
} // namespace ts
