// The dataset readers (datasets/): IDX files of any rank, CIFAR-10 and
// CIFAR-100 binary batches, a Fashion-MNIST pair, each gzip or plain (the
// readers inflate through zlib either way). Anything but a usable file is a
// DataError naming it; what reads must hold what the header announced.
//
// Input: a selector byte, then the file. Selector % 4: 0 an IDX file of
// rank 1 + (selector / 4) % 3; 1 CIFAR-10's test_batch.bin; 2 CIFAR-100's
// test.bin; 3 a Fashion-MNIST test pair: a 4-byte little-endian length n,
// the image file's n bytes, then the label file.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "FuzzSupport.h"
#include "datasets/Dataset.h"
#include "datasets/IdxFile.h"

namespace {

void checkIdx(const ts::IdxArray& idx, int rank) {
    if (int(idx.dims.size()) != rank) ts::fuzz::propertyBroken("an IDX file of another rank");
    uint64_t count = 1;
    for (int64_t d : idx.dims)
        count *= uint64_t(d);
    if (idx.offset + count != idx.bytes.size())
        ts::fuzz::propertyBroken("an IDX file whose values differ from its header");
}

void checkImages(const ts::ImageDataset& set) {
    if (set.pixels.size() != size_t(set.size()) * size_t(set.imageBytes()))
        ts::fuzz::propertyBroken("a dataset whose pixels and labels differ in number");
    for (int64_t label : set.labels)
        if (label < 0 || label >= set.num_classes)
            ts::fuzz::propertyBroken("a label out of the dataset's classes");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    static ts::fuzz::ScratchDir scratch;
    const auto& dir = scratch.fresh();
    const uint8_t selector = data[0];
    const std::string file(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        switch (selector % 4) {
        case 0: {
            const int rank = 1 + (selector / 4) % 3;
            scratch.write("file.idx", file);
            checkIdx(ts::readIdxUbyte(dir / "file.idx", rank, "image"), rank);
            break;
        }
        case 1:
            scratch.write("test_batch.bin", file);
            checkImages(ts::readCifar10(dir, ts::Split::Test));
            break;
        case 2:
            scratch.write("test.bin", file);
            checkImages(ts::readCifar100(dir, ts::Split::Test));
            break;
        default: {
            if (file.size() < 4) return 0;
            uint32_t n = 0;
            for (int i = 3; i >= 0; --i)
                n = n << 8 | uint8_t(file[size_t(i)]);
            const size_t images = std::min<size_t>(n, file.size() - 4);
            scratch.write("t10k-images-idx3-ubyte", file.substr(4, images));
            scratch.write("t10k-labels-idx1-ubyte", file.substr(4 + images));
            checkImages(ts::readFashionMnist(dir, ts::Split::Test));
        }
        }
    } catch (const ts::DataError&) {
    }
    return 0;
}
