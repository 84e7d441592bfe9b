#include "report/ChartPng.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <stdexcept>

#include <zlib.h>

namespace ts::chart {
namespace {

// Classic 5x7 font (descenders in an 8th row), ASCII 32..126: five column
// bytes per glyph, bit 0 = top row.
constexpr uint8_t kFont[95][5] = {
    {0x00, 0x00, 0x00, 0x00, 0x00}, {0x00, 0x00, 0x5F, 0x00, 0x00}, {0x00, 0x07, 0x00, 0x07, 0x00},
    {0x14, 0x7F, 0x14, 0x7F, 0x14}, {0x24, 0x2A, 0x7F, 0x2A, 0x12}, {0x23, 0x13, 0x08, 0x64, 0x62},
    {0x36, 0x49, 0x55, 0x22, 0x50}, {0x00, 0x05, 0x03, 0x00, 0x00}, {0x00, 0x1C, 0x22, 0x41, 0x00},
    {0x00, 0x41, 0x22, 0x1C, 0x00}, {0x14, 0x08, 0x3E, 0x08, 0x14}, {0x08, 0x08, 0x3E, 0x08, 0x08},
    {0x00, 0x50, 0x30, 0x00, 0x00}, {0x08, 0x08, 0x08, 0x08, 0x08}, {0x00, 0x60, 0x60, 0x00, 0x00},
    {0x20, 0x10, 0x08, 0x04, 0x02}, {0x3E, 0x51, 0x49, 0x45, 0x3E}, {0x00, 0x42, 0x7F, 0x40, 0x00},
    {0x42, 0x61, 0x51, 0x49, 0x46}, {0x21, 0x41, 0x45, 0x4B, 0x31}, {0x18, 0x14, 0x12, 0x7F, 0x10},
    {0x27, 0x45, 0x45, 0x45, 0x39}, {0x3C, 0x4A, 0x49, 0x49, 0x30}, {0x01, 0x71, 0x09, 0x05, 0x03},
    {0x36, 0x49, 0x49, 0x49, 0x36}, {0x06, 0x49, 0x49, 0x29, 0x1E}, {0x00, 0x36, 0x36, 0x00, 0x00},
    {0x00, 0x56, 0x36, 0x00, 0x00}, {0x08, 0x14, 0x22, 0x41, 0x00}, {0x14, 0x14, 0x14, 0x14, 0x14},
    {0x00, 0x41, 0x22, 0x14, 0x08}, {0x02, 0x01, 0x51, 0x09, 0x06}, {0x32, 0x49, 0x79, 0x41, 0x3E},
    {0x7E, 0x11, 0x11, 0x11, 0x7E}, {0x7F, 0x49, 0x49, 0x49, 0x36}, {0x3E, 0x41, 0x41, 0x41, 0x22},
    {0x7F, 0x41, 0x41, 0x22, 0x1C}, {0x7F, 0x49, 0x49, 0x49, 0x41}, {0x7F, 0x09, 0x09, 0x09, 0x01},
    {0x3E, 0x41, 0x49, 0x49, 0x7A}, {0x7F, 0x08, 0x08, 0x08, 0x7F}, {0x00, 0x41, 0x7F, 0x41, 0x00},
    {0x20, 0x40, 0x41, 0x3F, 0x01}, {0x7F, 0x08, 0x14, 0x22, 0x41}, {0x7F, 0x40, 0x40, 0x40, 0x40},
    {0x7F, 0x02, 0x0C, 0x02, 0x7F}, {0x7F, 0x04, 0x08, 0x10, 0x7F}, {0x3E, 0x41, 0x41, 0x41, 0x3E},
    {0x7F, 0x09, 0x09, 0x09, 0x06}, {0x3E, 0x41, 0x51, 0x21, 0x5E}, {0x7F, 0x09, 0x19, 0x29, 0x46},
    {0x46, 0x49, 0x49, 0x49, 0x31}, {0x01, 0x01, 0x7F, 0x01, 0x01}, {0x3F, 0x40, 0x40, 0x40, 0x3F},
    {0x1F, 0x20, 0x40, 0x20, 0x1F}, {0x3F, 0x40, 0x38, 0x40, 0x3F}, {0x63, 0x14, 0x08, 0x14, 0x63},
    {0x07, 0x08, 0x70, 0x08, 0x07}, {0x61, 0x51, 0x49, 0x45, 0x43}, {0x00, 0x7F, 0x41, 0x41, 0x00},
    {0x02, 0x04, 0x08, 0x10, 0x20}, {0x00, 0x41, 0x41, 0x7F, 0x00}, {0x04, 0x02, 0x01, 0x02, 0x04},
    {0x40, 0x40, 0x40, 0x40, 0x40}, {0x00, 0x01, 0x02, 0x04, 0x00}, {0x20, 0x54, 0x54, 0x54, 0x78},
    {0x7F, 0x48, 0x44, 0x44, 0x38}, {0x38, 0x44, 0x44, 0x44, 0x20}, {0x38, 0x44, 0x44, 0x48, 0x7F},
    {0x38, 0x54, 0x54, 0x54, 0x18}, {0x08, 0x7E, 0x09, 0x01, 0x02}, {0x18, 0xA4, 0xA4, 0xA4, 0x7C},
    {0x7F, 0x08, 0x04, 0x04, 0x78}, {0x00, 0x44, 0x7D, 0x40, 0x00}, {0x40, 0x80, 0x84, 0x7D, 0x00},
    {0x7F, 0x10, 0x28, 0x44, 0x00}, {0x00, 0x41, 0x7F, 0x40, 0x00}, {0x7C, 0x04, 0x18, 0x04, 0x78},
    {0x7C, 0x08, 0x04, 0x04, 0x78}, {0x38, 0x44, 0x44, 0x44, 0x38}, {0xFC, 0x24, 0x24, 0x24, 0x18},
    {0x18, 0x24, 0x24, 0x18, 0xFC}, {0x7C, 0x08, 0x04, 0x04, 0x08}, {0x48, 0x54, 0x54, 0x54, 0x20},
    {0x04, 0x3F, 0x44, 0x40, 0x20}, {0x3C, 0x40, 0x40, 0x20, 0x7C}, {0x1C, 0x20, 0x40, 0x20, 0x1C},
    {0x3C, 0x40, 0x30, 0x40, 0x3C}, {0x44, 0x28, 0x10, 0x28, 0x44}, {0x9C, 0xA0, 0xA0, 0xA0, 0x7C},
    {0x44, 0x64, 0x54, 0x4C, 0x44}, {0x00, 0x08, 0x36, 0x41, 0x00}, {0x00, 0x00, 0x7F, 0x00, 0x00},
    {0x00, 0x41, 0x36, 0x08, 0x00}, {0x08, 0x04, 0x08, 0x10, 0x08},
};

constexpr int kGlyphAdvance = 6; // 5 columns + 1 blank

const Color kInk{40, 40, 40};
const Color kGrid{225, 225, 225};
const Color kAxis{90, 90, 90};

} // namespace

Color paletteColor(size_t i) {
    static const Color kPalette[] = {
        {31, 119, 180}, {255, 127, 14},  {44, 160, 44},   {214, 39, 40},  {148, 103, 189},
        {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
    return kPalette[i % (sizeof(kPalette) / sizeof(kPalette[0]))];
}

// --- Image -------------------------------------------------------------------

Image::Image(int width, int height, Color background) : width_(width), height_(height) {
    if (width <= 0 || height <= 0 || width > 16384 || height > 16384)
        throw std::invalid_argument("image size " + std::to_string(width) + "x" +
                                    std::to_string(height) + " is out of range (1..16384)");
    pixels_.resize(size_t(width) * height * 3);
    for (size_t i = 0; i < pixels_.size(); i += 3) {
        pixels_[i] = background.r;
        pixels_[i + 1] = background.g;
        pixels_[i + 2] = background.b;
    }
}

void Image::set(int x, int y, Color c) {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
    uint8_t* p = &pixels_[(size_t(y) * width_ + x) * 3];
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
}

Color Image::at(int x, int y) const {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return {};
    const uint8_t* p = &pixels_[(size_t(y) * width_ + x) * 3];
    return {p[0], p[1], p[2]};
}

void Image::fillRect(int x, int y, int w, int h, Color c) {
    for (int yy = std::max(0, y); yy < std::min(height_, y + h); ++yy)
        for (int xx = std::max(0, x); xx < std::min(width_, x + w); ++xx)
            set(xx, yy, c);
}

void Image::line(int x0, int y0, int x1, int y1, Color c, int thickness) {
    // Bresenham; thick lines stamp a square brush at every step.
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
    const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    const int lo = -(thickness - 1) / 2, hi = thickness / 2;
    int err = dx + dy;
    for (int guard = 0; guard < 100000; ++guard) {
        for (int oy = lo; oy <= hi; ++oy)
            for (int ox = lo; ox <= hi; ++ox)
                set(x0 + ox, y0 + oy, c);
        if (x0 == x1 && y0 == y1) break;
        const int e2 = 2 * err;
        if (e2 >= dy) {
            err += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            err += dx;
            y0 += sy;
        }
    }
}

void Image::text(int x, int y, const std::string& s, Color c, int scale, bool vertical) {
    int pen = 0;
    for (unsigned char ch : s) {
        const uint8_t* glyph = kFont[(ch >= 32 && ch <= 126 ? ch : '?') - 32];
        for (int col = 0; col < 5; ++col)
            for (int row = 0; row < 8; ++row) {
                if (!(glyph[col] >> row & 1)) continue;
                const int u = (pen + col) * scale, v = row * scale;
                if (vertical) // reading upwards: u runs towards -y, v towards +x
                    fillRect(x + v, y - u - scale, scale, scale, c);
                else
                    fillRect(x + u, y + v, scale, scale, c);
            }
        pen += kGlyphAdvance;
    }
}

int Image::textWidth(const std::string& s, int scale) {
    return s.empty() ? 0 : (int(s.size()) * kGlyphAdvance - 1) * scale;
}

// --- PNG ---------------------------------------------------------------------

namespace {

void putBigEndian(std::string& out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(char(v >> shift & 0xFF));
}

uint32_t getBigEndian(const std::string& in, size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
        v = v << 8 | uint8_t(in[at + i]);
    return v;
}

void putChunk(std::string& out, const char* type, const std::string& data) {
    putBigEndian(out, uint32_t(data.size()));
    const std::string body = std::string(type, 4) + data;
    out += body;
    putBigEndian(
        out, uint32_t(crc32(0, reinterpret_cast<const Bytef*>(body.data()), uInt(body.size()))));
}

const char kSignature[] = "\x89PNG\r\n\x1a\n";

int paeth(int a, int b, int c) {
    const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

} // namespace

std::string encodePng(const Image& image) {
    const int w = image.width(), h = image.height();
    std::string raw;
    raw.reserve(size_t(h) * (1 + size_t(w) * 3));
    for (int y = 0; y < h; ++y) {
        raw.push_back(0); // filter: none (charts compress well without)
        raw.append(reinterpret_cast<const char*>(&image.rgb()[size_t(y) * w * 3]), size_t(w) * 3);
    }
    uLongf packed_size = compressBound(uLong(raw.size()));
    std::string packed(packed_size, '\0');
    if (compress2(reinterpret_cast<Bytef*>(&packed[0]), &packed_size,
                  reinterpret_cast<const Bytef*>(raw.data()), uLong(raw.size()), 9) != Z_OK)
        throw std::runtime_error("PNG encoding failed: zlib could not compress the image");
    packed.resize(packed_size);
    std::string header;
    putBigEndian(header, uint32_t(w));
    putBigEndian(header, uint32_t(h));
    header += std::string("\x08\x02\x00\x00\x00", 5); // 8-bit, RGB, deflate, filter 0, no interlace
    std::string out(kSignature, 8);
    putChunk(out, "IHDR", header);
    putChunk(out, "IDAT", packed);
    putChunk(out, "IEND", "");
    return out;
}

void writePng(const Image& image, const std::filesystem::path& path) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    const std::string bytes = encodePng(image);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out) throw std::runtime_error(path.string() + ": cannot write the PNG file");
}

Image decodePng(const std::string& bytes) {
    if (bytes.size() < 8 || bytes.compare(0, 8, std::string(kSignature, 8)) != 0)
        throw std::runtime_error("not a PNG file (signature missing)");
    int w = 0, h = 0;
    std::string packed;
    for (size_t at = 8; at + 12 <= bytes.size();) {
        const uint32_t length = getBigEndian(bytes, at);
        if (at + 12 + length > bytes.size()) throw std::runtime_error("PNG chunk is truncated");
        const std::string type = bytes.substr(at + 4, 4), data = bytes.substr(at + 8, length);
        if (type == "IHDR") {
            if (length != 13 || data[8] != 8 || data[9] != 2 || data[12] != 0)
                throw std::runtime_error("only 8-bit RGB non-interlaced PNGs are supported");
            w = int(getBigEndian(data, 0));
            h = int(getBigEndian(data, 4));
        } else if (type == "IDAT") {
            packed += data;
        }
        at += 12 + length;
    }
    if (w <= 0 || h <= 0) throw std::runtime_error("PNG has no IHDR chunk");
    const size_t stride = size_t(w) * 3;
    std::string raw(size_t(h) * (stride + 1), '\0');
    uLongf raw_size = uLongf(raw.size());
    if (uncompress(reinterpret_cast<Bytef*>(&raw[0]), &raw_size,
                   reinterpret_cast<const Bytef*>(packed.data()), uLong(packed.size())) != Z_OK ||
        raw_size != raw.size())
        throw std::runtime_error("PNG image data is corrupt");
    Image image(w, h);
    std::vector<uint8_t> prev(stride, 0), cur(stride);
    for (int y = 0; y < h; ++y) {
        const uint8_t filter = uint8_t(raw[size_t(y) * (stride + 1)]);
        for (size_t i = 0; i < stride; ++i) {
            const int x = uint8_t(raw[size_t(y) * (stride + 1) + 1 + i]);
            const int a = i >= 3 ? cur[i - 3] : 0, b = prev[i], c = i >= 3 ? prev[i - 3] : 0;
            const int pred = filter == 0   ? 0
                             : filter == 1 ? a
                             : filter == 2 ? b
                             : filter == 3 ? (a + b) / 2
                             : filter == 4 ? paeth(a, b, c)
                                           : -1;
            if (pred < 0) throw std::runtime_error("PNG uses an unknown filter type");
            cur[i] = uint8_t(x + pred);
        }
        for (int x = 0; x < w; ++x)
            image.set(x, y, {cur[x * 3], cur[x * 3 + 1], cur[x * 3 + 2]});
        prev.swap(cur);
    }
    return image;
}

// --- axes ----------------------------------------------------------------------

std::string formatCompact(double v) {
    if (std::isnan(v)) return "-";
    const double a = std::abs(v);
    char text[32];
    const char* suffix = "";
    double scaled = v;
    if (a >= 1e9)
        scaled = v / 1e9, suffix = "G";
    else if (a >= 1e6)
        scaled = v / 1e6, suffix = "M";
    else if (a >= 1e4)
        scaled = v / 1e3, suffix = "k";
    const double s = std::abs(scaled);
    const char* format = s == 0      ? "%.0f"
                         : s >= 100  ? "%.0f"
                         : s >= 10   ? "%.1f"
                         : s >= 1    ? "%.2f"
                         : s >= 0.01 ? "%.3f"
                                     : "%.1e";
    std::snprintf(text, sizeof(text), format, scaled);
    std::string out = text;
    // Trim trailing zeros of fixed-point forms ("12.50" -> "12.5", "3.00" -> "3").
    if (out.find('.') != std::string::npos && out.find('e') == std::string::npos) {
        out.erase(out.find_last_not_of('0') + 1);
        if (out.back() == '.') out.pop_back();
    }
    return out + suffix;
}

namespace {

// Maps data values to pixels along one axis, linear or log10.
struct Axis {
    double lo = 0, hi = 1;
    bool log = false;
    int p0 = 0, p1 = 1; // pixel positions of lo and hi

    double t(double v) const { return log ? std::log10(v) : v; }
    int pixel(double v) const {
        const double f = (t(v) - t(lo)) / (t(hi) - t(lo));
        return int(std::lround(p0 + f * (p1 - p0)));
    }
};

double niceStep(double span, int target) {
    const double raw = span / std::max(1, target);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * mag >= raw) return m * mag;
    return 10 * mag;
}

// Range of finite (and, for log axes, positive) values, widened to nice ends.
Axis fitAxis(std::vector<double> values, bool log, bool include_zero) {
    Axis a;
    a.log = log;
    values.erase(std::remove_if(values.begin(), values.end(),
                                [&](double v) { return !std::isfinite(v) || (log && v <= 0); }),
                 values.end());
    if (values.empty()) values = log ? std::vector<double>{1, 10} : std::vector<double>{0, 1};
    double lo = *std::min_element(values.begin(), values.end());
    double hi = *std::max_element(values.begin(), values.end());
    if (log) {
        a.lo = std::pow(10.0, std::floor(std::log10(lo)));
        a.hi = std::pow(10.0, std::ceil(std::log10(hi)));
        if (a.hi <= a.lo) a.hi = a.lo * 10;
        return a;
    }
    if (include_zero) lo = std::min(lo, 0.0), hi = std::max(hi, 0.0);
    if (hi == lo) hi = lo + (lo == 0 ? 1 : std::abs(lo) * 0.1);
    const double step = niceStep(hi - lo, 5);
    a.lo = std::floor(lo / step) * step;
    a.hi = std::ceil(hi / step) * step;
    if (!include_zero) { // breathing room so points do not sit on the frame
        a.lo -= step * 0.25;
        a.hi += step * 0.25;
    }
    return a;
}

std::vector<double> ticksOf(const Axis& a) {
    std::vector<double> ticks;
    if (a.log) {
        for (double v = a.lo; v <= a.hi * 1.0001; v *= 10)
            ticks.push_back(v);
        return ticks;
    }
    const double step = niceStep(a.hi - a.lo, 5);
    for (double v = std::ceil(a.lo / step) * step; v <= a.hi + step * 1e-6; v += step)
        ticks.push_back(std::abs(v) < step * 1e-9 ? 0 : v);
    return ticks;
}

struct Frame {
    int left, top, right, bottom; // plot area in pixels
};

using Legend = std::vector<std::pair<std::string, Color>>;

// Legend items in one row under the title (never over the data).
int drawLegend(Image& img, int y, int width, const Legend& items, int s) {
    if (items.size() < 2) return 0;
    int total = 0;
    for (const auto& item : items)
        total += 18 * s + Image::textWidth(item.first, s);
    int x = std::max(2 * s, (width - total) / 2);
    for (const auto& [name, color] : items) {
        img.fillRect(x, y + s, 6 * s, 5 * s, color);
        img.text(x + 8 * s, y, name, kInk, s);
        x += 18 * s + Image::textWidth(name, s);
    }
    return 12 * s;
}

Frame drawFrame(Image& img, const ChartSize& size, const std::string& title,
                const std::string& x_label, const std::string& y_label, const Legend& legend) {
    const int s = size.text_scale;
    img.text((size.width - Image::textWidth(title, s + 1)) / 2, 6 * s, title, kInk, s + 1);
    const int legend_height = drawLegend(img, 8 * (s + 1) + 8 * s, size.width, legend, s);
    Frame f{12 * s + 7 * s * 8, 8 * (s + 1) + 14 * s + legend_height, size.width - 14 * s,
            size.height - (7 * s * 2 + 16 * s)};
    if (!x_label.empty())
        img.text((f.left + f.right - Image::textWidth(x_label, s)) / 2, size.height - 7 * s - 4 * s,
                 x_label, kInk, s);
    if (!y_label.empty())
        img.text(4 * s, (f.top + f.bottom + Image::textWidth(y_label, s)) / 2, y_label, kInk, s,
                 /*vertical=*/true);
    return f;
}

void drawYAxis(Image& img, const Frame& f, const Axis& y, int s) {
    for (double v : ticksOf(y)) {
        const int py = y.pixel(v);
        img.line(f.left, py, f.right, py, kGrid);
        const std::string label = formatCompact(v);
        img.text(f.left - 3 * s - Image::textWidth(label, s), py - Image::textHeight(s) / 2, label,
                 kInk, s);
    }
    img.line(f.left, f.top, f.left, f.bottom, kAxis);
    img.line(f.left, f.bottom, f.right, f.bottom, kAxis);
}

// Centred under x, kept inside the image.
void xTickLabel(Image& img, int x, int y, const std::string& label, int s) {
    const int w = Image::textWidth(label, s);
    img.text(std::clamp(x - w / 2, 0, std::max(0, img.width() - w - 1)), y, label, kInk, s);
}

std::vector<std::pair<double, std::string>> autoTicks(const Axis& a) {
    std::vector<std::pair<double, std::string>> out;
    for (double v : ticksOf(a))
        out.emplace_back(v, formatCompact(v));
    return out;
}

void marker(Image& img, int x, int y, Color c, int s) {
    img.fillRect(x - 2 * s, y - 2 * s, 4 * s + 1, 4 * s + 1, c);
}

struct Box {
    int x0, y0, x1, y1;
    bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

// Point labels go right or left of their point, above or below, wherever they
// neither leave the plot nor cover an earlier label; otherwise they are left out.
void placeLabel(Image& img, const Frame& f, std::vector<Box>& placed, int px, int py,
                const std::string& text, int s) {
    const int w = Image::textWidth(text, s), h = Image::textHeight(s);
    const int xs[] = {px + 4 * s, px - 4 * s - w};
    const int ys[] = {py - 9 * s, py + 3 * s};
    for (int x : xs)
        for (int y : ys) {
            const Box box{x - s, y - s, x + w + s, y + h + 2 * s};
            if (box.x0 < f.left || box.x1 > f.right || box.y0 < f.top || box.y1 > f.bottom)
                continue;
            if (std::any_of(placed.begin(), placed.end(),
                            [&](const Box& b) { return b.overlaps(box); }))
                continue;
            placed.push_back(box);
            img.text(x, y, text, kInk, s);
            return;
        }
}

} // namespace

Image renderBarChart(const BarChart& chart, ChartSize size) {
    Image img(size.width, size.height);
    const int s = size.text_scale;
    Legend legend;
    for (const auto& series : chart.series)
        legend.emplace_back(series.name, series.color);
    Frame f = drawFrame(img, size, chart.title, "", chart.y_label, legend);
    std::vector<double> all;
    for (const auto& series : chart.series)
        all.insert(all.end(), series.values.begin(), series.values.end());
    Axis y = fitAxis(all, false, /*include_zero=*/true);
    y.p0 = f.bottom;
    y.p1 = f.top + 10 * s; // room for value labels above the tallest bar
    drawYAxis(img, f, y, s);
    const size_t n = std::max<size_t>(1, chart.categories.size());
    const double slot = double(f.right - f.left) / double(n);
    const size_t groups = chart.overlay ? 1 : std::max<size_t>(1, chart.series.size());
    const double bar = slot * 0.8 / double(groups);
    // Category names in a smaller font when they would not fit, cut only then.
    size_t longest = 0;
    for (const auto& name : chart.categories)
        longest = std::max(longest, name.size());
    const int label_scale = int(longest) * kGlyphAdvance * s <= int(slot) ? s : std::max(1, s - 1);
    const int max_chars = std::max(3, int(slot) / (kGlyphAdvance * label_scale));
    for (size_t c = 0; c < chart.categories.size(); ++c) {
        const int cx = f.left + int(slot * (c + 0.5));
        std::string label = chart.categories[c];
        if (int(label.size()) > max_chars) label = label.substr(0, max_chars - 2) + "..";
        xTickLabel(img, cx, f.bottom + 4 * s, label, label_scale);
        bool drawn = false;
        for (size_t k = 0; k < chart.series.size(); ++k) {
            const auto& series = chart.series[k];
            const int x0 = f.left + int(slot * c + slot * 0.1 + bar * (chart.overlay ? 0 : k));
            const bool missing = c >= series.values.size() || !std::isfinite(series.values[c]);
            if (missing) {
                const bool last = k + 1 == chart.series.size();
                if (!chart.overlay || (last && !drawn))
                    img.text(x0 + int(bar) / 2 - Image::textWidth("n/a", s) / 2, f.bottom - 10 * s,
                             "n/a", kAxis, s);
                continue;
            }
            drawn = true;
            const int top = y.pixel(series.values[c]), base = y.pixel(std::max(y.lo, 0.0));
            img.fillRect(x0, std::min(top, base), std::max(1, int(bar) - s),
                         std::abs(base - top) + 1, series.color);
            if (chart.value_labels) {
                const std::string v = formatCompact(series.values[c]);
                img.text(x0 + int(bar) / 2 - Image::textWidth(v, s) / 2,
                         std::min(top, base) - 9 * s, v, kInk, s);
            }
        }
    }
    return img;
}

Image renderXyChart(const XyChart& chart, ChartSize size) {
    Image img(size.width, size.height);
    const int s = size.text_scale;
    Legend legend;
    for (const auto& series : chart.series)
        legend.emplace_back(series.name, series.color);
    Frame f = drawFrame(img, size, chart.title, chart.x_label, chart.y_label, legend);
    std::vector<double> xs, ys;
    for (const auto& series : chart.series) {
        xs.insert(xs.end(), series.xs.begin(), series.xs.end());
        ys.insert(ys.end(), series.ys.begin(), series.ys.end());
    }
    for (const auto& tick : chart.x_ticks)
        xs.push_back(tick.first);
    Axis x = fitAxis(xs, chart.log_x, false), y = fitAxis(ys, chart.log_y, !chart.log_y);
    x.p0 = f.left;
    x.p1 = f.right;
    y.p0 = f.bottom;
    y.p1 = f.top;
    drawYAxis(img, f, y, s);
    for (const auto& [v, label] : chart.x_ticks.empty() ? autoTicks(x) : chart.x_ticks) {
        const int px = x.pixel(v);
        img.line(px, f.top, px, f.bottom, kGrid);
        img.line(px, f.bottom, px, f.bottom + 2 * s, kAxis);
        xTickLabel(img, px, f.bottom + 4 * s, label, s);
    }
    img.line(f.left, f.bottom, f.right, f.bottom, kAxis);
    auto usable = [&](double vx, double vy) {
        return std::isfinite(vx) && std::isfinite(vy) && (!x.log || vx > 0) && (!y.log || vy > 0);
    };
    std::vector<Box> labels;
    for (const auto& series : chart.series) {
        const size_t n = std::min(series.xs.size(), series.ys.size());
        for (size_t i = 0; i < n; ++i) {
            if (!usable(series.xs[i], series.ys[i])) continue;
            const int px = x.pixel(series.xs[i]), py = y.pixel(series.ys[i]);
            if (series.line && i + 1 < n && usable(series.xs[i + 1], series.ys[i + 1]))
                img.line(px, py, x.pixel(series.xs[i + 1]), y.pixel(series.ys[i + 1]), series.color,
                         s);
            if (series.markers) marker(img, px, py, series.color, s);
            if (i < series.point_labels.size() && !series.point_labels[i].empty())
                placeLabel(img, f, labels, px, py, series.point_labels[i], s);
        }
    }
    return img;
}

} // namespace ts::chart
