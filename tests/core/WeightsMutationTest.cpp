// The weights reader on thousands of broken variants of the checked-in
// fixtures: every read returns tensors or throws ModelError, whose text names
// the file and carries no LibTorch stack frames; anything else (another
// exception, a crash, a sanitizer report) is a finding. The zip container is
// LibTorch's (PyTorchStreamReader), which the libFuzzer targets cannot link,
// so its inputs are mutated here: bytes flipped or truncated anywhere, zip
// fields set to edge values, and records rewritten with their CRC-32 fixed so
// that the broken bytes get past the archive's checksum to the unpickler and
// TorchScript's loader. TRAINSCOPE_WEIGHTS_MUTATIONS=N changes the count per
// fixture (docs/reliability.md has a long run's figures). Each variant also
// goes through isTrainscopeCheckpoint, LibTorch's InputArchive path.
//
// A third as many variants again are sound archives with one record of
// another length (shortened or lengthened, the archive written anew by
// LibTorch's own PyTorchStreamWriter): a tensor's storage shorter or longer
// than its sizes need, a pickle or TorchScript code file cut short.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>

#include <caffe2/serialize/inline_container.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include "core/ModelTestSupport.h"
#include "engine/Checkpoint.h"
#include "models/Model.h"

namespace ts {
namespace {

using Bytes = std::string;

uint32_t le32(const Bytes& b, size_t at) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
        v = (v << 8) | uint8_t(b[at + size_t(i)]);
    return v;
}
uint16_t le16(const Bytes& b, size_t at) {
    return uint16_t(uint8_t(b[at]) | (uint8_t(b[at + 1]) << 8));
}
void put32(Bytes& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        b[at + size_t(i)] = char((v >> (8 * i)) & 0xff);
}

// A stored (uncompressed) record of the archive: where its data and its two
// CRC fields are. torch.save writes every record stored.
struct ZipRecord {
    size_t data = 0, size = 0;
    size_t local_crc = 0, central_crc = 0;
};

// The records of an intact archive, from its central directory.
std::vector<ZipRecord> zipRecords(const Bytes& b) {
    std::vector<ZipRecord> out;
    if (b.size() < 22) return out;
    size_t eocd = b.size() - 22;
    while (eocd > 0 && le32(b, eocd) != 0x06054b50)
        --eocd;
    if (le32(b, eocd) != 0x06054b50) return out;
    size_t at = le32(b, eocd + 16);
    for (unsigned n = le16(b, eocd + 10); n > 0 && at + 46 <= b.size(); --n) {
        if (le32(b, at) != 0x02014b50) break;
        const size_t local = le32(b, at + 42);
        if (le16(b, at + 10) == 0 && local + 30 <= b.size()) { // stored
            ZipRecord r;
            r.size = le32(b, at + 20);
            r.central_crc = at + 16;
            r.local_crc = local + 14;
            r.data = local + 30 + le16(b, local + 26) + le16(b, local + 28);
            if (r.data + r.size <= b.size()) out.push_back(r);
        }
        at += 46 + le16(b, at + 28) + le16(b, at + 30) + le16(b, at + 32);
    }
    return out;
}

class Mutator {
public:
    explicit Mutator(uint64_t seed) : rng_(seed) {}

    Bytes mutate(const Bytes& original, const std::vector<ZipRecord>& records) {
        Bytes b = original;
        switch (pick(4)) {
        case 0: // truncated
            b.resize(pick(b.size()));
            break;
        case 1: // bytes flipped anywhere
            for (size_t n = 1 + pick(8); n > 0; --n)
                b[pick(b.size())] ^= char(1 + pick(255));
            break;
        case 2: { // a 32-bit field set to an edge value
            static const uint32_t kEdges[] = {0,          1,          0x7fffffff, 0x80000000,
                                              0xffffffff, 0xfffffffe, 0x10000,    64};
            if (b.size() >= 4) put32(b, pick(b.size() - 3), kEdges[pick(std::size(kEdges))]);
            break;
        }
        default: // a record's bytes changed, its CRC-32 made right again
            if (records.empty()) break;
            const ZipRecord& r = records[pick(records.size())];
            if (r.size == 0) break;
            for (size_t n = 1 + pick(4); n > 0; --n) {
                const size_t at = r.data + pick(r.size);
                b[at] = pick(2) ? char(pick(256)) : char(b[at] ^ (1 << pick(8)));
            }
            const uint32_t crc =
                uint32_t(crc32(0, reinterpret_cast<const Bytef*>(b.data() + r.data), uInt(r.size)));
            put32(b, r.local_crc, crc);
            put32(b, r.central_crc, crc);
            break;
        }
        return b;
    }

    // The archive with one record (not the version) shortened or lengthened,
    // every other record as it was.
    Bytes resizeOneRecord(const Bytes& original) {
        std::istringstream in(original);
        caffe2::serialize::PyTorchStreamReader reader(&in);
        std::vector<std::string> names;
        for (const auto& name : reader.getAllRecords())
            if (name != "version" && name != ".data/version") names.push_back(name);
        std::sort(names.begin(), names.end()); // the same variants every run
        const std::string& resized = names.at(pick(names.size()));
        Bytes out;
        caffe2::serialize::PyTorchStreamWriter writer([&out](const void* data, size_t size) {
            out.append(static_cast<const char*>(data), size);
            return size;
        });
        writer.setMinVersion(reader.version());
        for (const auto& name : names) {
            auto [data, size] = reader.getRecord(name);
            Bytes record(static_cast<const char*>(data.get()), size);
            if (name == resized) {
                if (pick(2) && !record.empty())
                    record.resize(pick(record.size()));
                else
                    for (size_t n = 1 + pick(64); n > 0; --n)
                        record.push_back(char(pick(256)));
            }
            writer.writeRecord(name, record.data(), record.size());
        }
        writer.writeEndOfFile();
        return out;
    }

private:
    size_t pick(size_t n) { return n == 0 ? 0 : size_t(rng_() % n); }
    std::mt19937_64 rng_;
};

int mutationsPerFixture() {
    const char* env = std::getenv("TRAINSCOPE_WEIGHTS_MUTATIONS");
    return env ? std::max(1, std::atoi(env)) : 150;
}

// "" when reading `path` gave tensors (counted in `read`) or a proper
// ModelError (in `refused`); else what went wrong.
std::string readProblem(const std::string& path, int& read, int& refused) {
    try {
        // `evaluate` and `run --resume` ask this first (LibTorch's archive
        // reader); it answers false for anything but a sound checkpoint.
        if (isTrainscopeCheckpoint(path)) return "a broken fixture taken for a checkpoint";
        readStateDict(path);
        ++read;
        return "";
    } catch (const ModelError& e) {
        ++refused;
        const std::string what = e.what();
        if (what.find(path) == std::string::npos) return "a ModelError without the file: " + what;
        for (const char* leak : {"Exception raised from", "frame #", "c10::Error"})
            if (what.find(leak) != std::string::npos) return "LibTorch's text leaked: " + what;
        return "";
    } catch (const std::exception& e) {
        return std::string("an exception other than ModelError (") + typeid(e).name() +
               "): " + e.what();
    } catch (...) {
        return "an exception of an unknown type";
    }
}

TEST(WeightsMutation, EveryBrokenVariantOfTheFixturesReadsOrIsRefusedInPlainWords) {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / "trainscope_weights_mutation";
    std::filesystem::create_directories(dir);
    const int per_fixture = mutationsPerFixture();
    int refused = 0, read = 0;
    for (const char* name : {"dtypes.pt", "checkpoint_p4.pt", "keep_vars.pt", "whole_module.pt",
                             "overflowing_view.pt", "tiny_script_io.pt", "tiny_script.pt"}) {
        std::ifstream in(test::modelFixture(name), std::ios::binary);
        const Bytes original{std::istreambuf_iterator<char>(in), {}};
        const std::vector<ZipRecord> records = zipRecords(original);
        ASSERT_FALSE(records.empty()) << name << ": no stored records found";
        Mutator mutator(0x5eed0000 + original.size()); // the same variants every run
        const std::string path = (dir / name).string();
        for (int i = 0; i < per_fixture; ++i) {
            const Bytes variant = mutator.mutate(original, records);
            std::ofstream(path, std::ios::binary | std::ios::trunc)
                .write(variant.data(), variant.size());
            ASSERT_EQ(readProblem(path, read, refused), "") << name << ", variant " << i;
        }
        Mutator resizer(0x5eed5e00 + original.size());
        for (int i = 0; i < std::max(1, per_fixture / 3); ++i) {
            const Bytes variant = resizer.resizeOneRecord(original);
            std::ofstream(path, std::ios::binary | std::ios::trunc)
                .write(variant.data(), variant.size());
            ASSERT_EQ(readProblem(path, read, refused), "")
                << name << ", variant " << i << " with a record resized";
        }
    }
    std::filesystem::remove_all(dir);
    std::printf("[          ] %d variants read, %d refused in plain words\n", read, refused);
    EXPECT_GT(refused, 0);
}

} // namespace
} // namespace ts
