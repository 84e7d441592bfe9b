#include "commands/ProgressPrinter.h"

#include <cmath>
#include <cstdio>

#include "analysis/OpTableFormat.h"

namespace ts {

void ProgressPrinter::clearLine() {
    if (interactive_) out_ << "\r\033[K";
}

void ProgressPrinter::onRunStarted(const RunInfo& info) {
    epochs_ = info.config.epochs;
    steps_per_epoch_ = info.steps_per_epoch;
    total_steps_ = steps_per_epoch_ * (epochs_ - info.start_epoch);
    out_ << info.config.model << " (" << info.config.stem << " stem, "
         << std::lround(info.parameters / 1e5) / 10.0 << "M params) on " << info.config.dataset
         << " (" << info.train_samples << " train / " << info.val_samples << " test), "
         << info.config.device << " " << info.config.precision << ", batch "
         << info.config.batch_size << ", " << steps_per_epoch_ << " steps x " << epochs_
         << " epochs, " << info.env.intra_op_threads << " threads, BLAS: " << info.env.blas << "\n";
}

void ProgressPrinter::onStep(const StepRecord& step) {
    ++done_steps_;
    smoothed_ips_ =
        smoothed_ips_ == 0 ? step.images_per_sec : 0.9 * smoothed_ips_ + 0.1 * step.images_per_sec;
    if (!interactive_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_draw_ < std::chrono::milliseconds(100) && done_steps_ != total_steps_) return;
    last_draw_ = now;
    const double fraction = total_steps_ ? double(done_steps_) / total_steps_ : 0;
    const int width = 30;
    const int filled = int(fraction * width);
    const double eta =
        smoothed_ips_ > 0 ? (total_steps_ - done_steps_) * step.batch_size / smoothed_ips_ : 0;
    char line[200];
    std::snprintf(line, sizeof line, "epoch %d/%d [%s%s] %3.0f%% %7.1f img/s loss %.4f ETA %.0fs",
                  step.epoch + 1, epochs_, std::string(filled, '#').c_str(),
                  std::string(width - filled, '.').c_str(), fraction * 100, smoothed_ips_,
                  step.loss, eta);
    clearLine();
    out_ << line << std::flush;
}

void ProgressPrinter::onEpoch(const EpochRecord& e) {
    clearLine();
    char line[256];
    std::snprintf(line, sizeof line, "epoch %d: %.1f s, %.1f img/s, train loss %.4f acc %.2f%%",
                  e.epoch + 1, e.epoch_time_s, e.images_per_sec, e.train_loss,
                  e.train_accuracy * 100);
    out_ << line;
    if (e.has_val) {
        std::snprintf(line, sizeof line, ", val loss %.4f acc %.2f%%", e.val_loss,
                      e.val_accuracy * 100);
        out_ << line;
    }
    out_ << "\n";
}

void ProgressPrinter::onMessage(LogLevel level, const std::string& text) {
    clearLine();
    out_ << (level == LogLevel::Error     ? "error: "
             : level == LogLevel::Warning ? "warning: "
                                          : "")
         << text << "\n";
}

void ProgressPrinter::onRunFinished(const RunSummary& s) {
    clearLine();
    char line[256];
    std::snprintf(line, sizeof line,
                  "%s: %ld steps in %.1f s; median %.1f img/s, step %.2f ms (data %.2f, copy "
                  "%.2f, fwd %.2f, bwd %.2f, opt %.2f); peak tensors %s, RSS %s",
                  toString(s.status), long(s.steps_completed), s.total_time_s,
                  s.median_images_per_sec, s.median_step_ms, s.median_phases.data_ms,
                  s.median_phases.copy_ms, s.median_phases.forward_ms, s.median_phases.backward_ms,
                  s.median_phases.optimizer_ms, formatBytes(s.peak_tensor_bytes).c_str(),
                  formatBytes(s.peak_rss_bytes).c_str());
    out_ << line;
    if (s.peak_device_bytes) out_ << ", device " << formatBytes(s.peak_device_bytes);
    out_ << "\n";
    if (s.peak_memory.total() == 0) return;
    out_ << "memory by category at the peak step:";
    const char* separator = " ";
    for (const MemoryCategoryField& field : kMemoryCategoryFields) {
        out_ << separator << field.name << ' ' << formatBytes(s.peak_memory.*field.bytes);
        separator = ", ";
    }
    out_ << "\n";
}

} // namespace ts
