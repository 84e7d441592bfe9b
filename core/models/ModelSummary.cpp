// Analytic ResNet summary: walks the same ResNetSpec the LibTorch modules are
// built from. MACs count multiply-accumulates of convs (Cout*Hout*Wout*Cin*k*k)
// and the linear head (in*out); BatchNorm, pooling, ReLU and residual adds are
// listed (the first three) with 0 MACs, as the ResNet paper counts.
#include "models/ModelSummary.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "models/ResNetSpec.h"

namespace ts {
namespace {

class SummaryBuilder {
public:
    SummaryBuilder(ModelSummary& summary, int size) : summary_(summary), h_(size), w_(size) {}

    void conv(const std::string& prefix, const ConvSpec& spec) {
        h_ = convOutputSize(h_, spec.kernel, spec.stride, spec.padding);
        w_ = convOutputSize(w_, spec.kernel, spec.stride, spec.padding);
        channels_ = spec.out_channels;
        const int64_t weights =
            int64_t(spec.in_channels) * spec.out_channels * spec.kernel * spec.kernel;
        add(prefix + spec.name, "Conv2d", weights, double(weights) * h_ * w_);
        add(prefix + batchNormNameFor(spec), "BatchNorm2d", 2 * int64_t(channels_), 0);
    }

    void maxPool() {
        h_ = convOutputSize(h_, 3, 2, 1);
        w_ = convOutputSize(w_, 3, 2, 1);
        add("maxpool", "MaxPool2d", 0, 0);
    }

    // The residual sum takes the shape of the block's main path.
    void block(const BlockSpec& block) {
        const int h_in = h_, w_in = w_;
        for (const auto& spec : block.convs)
            conv(block.name + ".", spec);
        if (!block.downsample) return;
        const int h_out = h_, w_out = w_;
        h_ = h_in;
        w_ = w_in;
        conv(block.name + ".", *block.downsample);
        if (h_ != h_out || w_ != w_out)
            throw std::logic_error("ResNet block " + block.name +
                                   " has mismatched residual shapes.");
    }

    void head(int features, int classes) {
        h_ = w_ = 1;
        add("avgpool", "AdaptiveAvgPool2d", 0, 0);
        const int64_t weights = int64_t(features) * classes;
        summary_.layers.push_back({"fc", "Linear", {classes}, weights + classes, double(weights)});
    }

private:
    void add(const std::string& name, const std::string& type, int64_t params, double macs) {
        summary_.layers.push_back({name, type, {channels_, h_, w_}, params, macs});
    }

    ModelSummary& summary_;
    int64_t channels_ = 0;
    int h_, w_;
};

std::string withThousands(int64_t v) {
    std::string digits = std::to_string(v);
    for (int i = int(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(size_t(i), ",");
    return digits;
}

std::string shapeText(const std::vector<int64_t>& shape) {
    std::string out;
    for (size_t i = 0; i < shape.size(); ++i)
        out += (i ? "x" : "") + std::to_string(shape[i]);
    return out;
}

// 1.82 G, 230.4 M, 5.1 K: three significant figures are plenty for MACs.
std::string scaled(double v) {
    const char* units[] = {"", " K", " M", " G", " T"};
    int u = 0;
    while (v >= 1000 && u < 4) {
        v /= 1000;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f%s" : "%.2f%s", v, units[u]);
    return buf;
}

std::string padded(const std::string& s, size_t width, bool right) {
    if (s.size() >= width) return s;
    const std::string fill(width - s.size(), ' ');
    return right ? fill + s : s + fill;
}

} // namespace

ModelSummary summarizeModel(const std::string& model, const std::string& stem, int in_channels,
                            int input_size, int num_classes) {
    if (input_size < 1)
        throw std::invalid_argument("Input size " + std::to_string(input_size) +
                                    " is invalid; expected at least 1 pixel.");
    const ResNetSpec spec = resNetSpec(model, stem, in_channels, num_classes);
    ModelSummary summary;
    summary.model = model;
    summary.stem = stem;
    summary.in_channels = in_channels;
    summary.input_size = input_size;
    summary.num_classes = num_classes;
    SummaryBuilder builder(summary, input_size);
    builder.conv("", spec.stem_conv);
    if (spec.maxpool) builder.maxPool();
    for (const auto& block : spec.blocks)
        builder.block(block);
    builder.head(spec.features, num_classes);
    for (const auto& layer : summary.layers) {
        summary.total_params += layer.params;
        summary.total_macs += layer.macs;
    }
    return summary;
}

std::string formatModelSummary(const ModelSummary& summary) {
    const std::vector<std::string> header{"Layer", "Type", "Output", "Params", "MACs"};
    std::vector<std::vector<std::string>> rows;
    for (const auto& l : summary.layers)
        rows.push_back(
            {l.name, l.type, shapeText(l.output_shape), withThousands(l.params), scaled(l.macs)});
    std::vector<size_t> widths(header.size());
    for (size_t c = 0; c < header.size(); ++c) {
        widths[c] = header[c].size();
        for (const auto& row : rows)
            widths[c] = std::max(widths[c], row[c].size());
    }
    auto line = [&](const std::vector<std::string>& cells) {
        std::string out;
        for (size_t c = 0; c < cells.size(); ++c)
            out += (c ? "  " : "") + padded(cells[c], widths[c], /*right=*/c >= 3);
        return out + "\n";
    };
    std::string rule;
    for (size_t c = 0; c < widths.size(); ++c)
        rule += std::string(widths[c] + (c ? 2 : 0), '-');
    std::string text = summary.model + " (" + summary.stem + " stem), input " +
                       std::to_string(summary.in_channels) + "x" +
                       std::to_string(summary.input_size) + "x" +
                       std::to_string(summary.input_size) + ", " +
                       std::to_string(summary.num_classes) + " classes\n";
    text += line(header) + rule + "\n";
    for (const auto& row : rows)
        text += line(row);
    text += rule + "\n";
    text += "Total params: " + withThousands(summary.total_params) + "\n";
    text += "Total MACs:   " + scaled(summary.total_macs) + " (" +
            withThousands(static_cast<int64_t>(summary.total_macs)) + ")\n";
    return text;
}

nlohmann::json toJson(const ModelSummary& summary) {
    nlohmann::json layers = nlohmann::json::array();
    for (const auto& l : summary.layers)
        layers.push_back({{"name", l.name},
                          {"type", l.type},
                          {"output_shape", l.output_shape},
                          {"params", l.params},
                          {"macs", l.macs}});
    return {{"model", summary.model},
            {"stem", summary.stem},
            {"in_channels", summary.in_channels},
            {"input_size", summary.input_size},
            {"num_classes", summary.num_classes},
            {"total_params", summary.total_params},
            {"total_macs", summary.total_macs},
            {"layers", layers}};
}

} // namespace ts
