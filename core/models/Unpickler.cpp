#include "models/Unpickler.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <unordered_map>

#include "models/Model.h"

namespace ts::pickle {
namespace {

// Opcode bytes, named as in CPython's Lib/pickle.py.
enum Op : uint8_t {
    MARK = '(', STOP = '.', POP = '0', POP_MARK = '1', DUP = '2', FLOAT = 'F', INT = 'I',
    BININT = 'J', BININT1 = 'K', LONG = 'L', BININT2 = 'M', NONE = 'N', PERSID = 'P',
    BINPERSID = 'Q', REDUCE = 'R', BINSTRING = 'T', SHORT_BINSTRING = 'U', BINUNICODE = 'X',
    APPEND = 'a', BUILD = 'b', GLOBAL = 'c', DICT = 'd', EMPTY_DICT = '}', APPENDS = 'e',
    GET = 'g', BINGET = 'h', LONG_BINGET = 'j', LIST = 'l', EMPTY_LIST = ']', PUT = 'p',
    BINPUT = 'q', LONG_BINPUT = 'r', UNICODE = 'V', SETITEM = 's', TUPLE = 't', EMPTY_TUPLE = ')',
    SETITEMS = 'u', BINFLOAT = 'G', BINBYTES = 'B', SHORT_BINBYTES = 'C', PROTO = 0x80,
    NEWOBJ = 0x81, TUPLE1 = 0x85, TUPLE2 = 0x86, TUPLE3 = 0x87, NEWTRUE = 0x88,
    NEWFALSE = 0x89, LONG1 = 0x8a, LONG4 = 0x8b, SHORT_BINUNICODE = 0x8c, BINUNICODE8 = 0x8d,
    BINBYTES8 = 0x8e, EMPTY_SET = 0x8f, ADDITEMS = 0x90, FROZENSET = 0x91, NEWOBJ_EX = 0x92,
    STACK_GLOBAL = 0x93, MEMOIZE = 0x94, FRAME = 0x95, BYTEARRAY8 = 0x96,
};

void appendUtf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xc0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out += char(0xe0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3f));
        out += char(0x80 | (cp & 0x3f));
    } else {
        out += char(0xf0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3f));
        out += char(0x80 | ((cp >> 6) & 0x3f));
        out += char(0x80 | (cp & 0x3f));
    }
}

// Protocol 0's UNICODE argument is "raw-unicode-escape": latin-1 bytes plus
// \uXXXX / \UXXXXXXXX escapes. Returns UTF-8.
std::string decodeRawUnicodeEscape(const std::string& raw) {
    std::string out;
    for (size_t i = 0; i < raw.size(); ++i) {
        const size_t digits = raw[i] == '\\' && i + 1 < raw.size()
                                  ? (raw[i + 1] == 'u' ? 4 : raw[i + 1] == 'U' ? 8 : 0)
                                  : 0;
        const bool escape = digits && i + 2 + digits <= raw.size() &&
                            std::all_of(raw.begin() + long(i + 2), raw.begin() + long(i + 2 + digits),
                                        [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
        if (escape) {
            appendUtf8(out, uint32_t(std::stoul(raw.substr(i + 2, digits), nullptr, 16)));
            i += 1 + digits;
        } else {
            appendUtf8(out, static_cast<unsigned char>(raw[i]));
        }
    }
    return out;
}

class Machine {
public:
    Machine(const uint8_t* data, size_t size, const std::string& origin, const UnpickleHooks& hooks)
        : data_(data), size_(size), origin_(origin), hooks_(hooks) {}

    ValuePtr run() {
        while (true) {
            op_pos_ = pos_;
            const uint8_t op = readByte();
            if (op == STOP) return pop();
            if (!scalarOp(op) && !containerOp(op) && !memoOp(op) && !objectOp(op))
                fail("uses unsupported pickle opcode 0x" + hex(op));
        }
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw ModelError("Cannot read " + origin_ + ": the pickle " + what + " at byte " +
                         std::to_string(op_pos_) + ".");
    }
    static std::string hex(uint8_t b) {
        const char* digits = "0123456789abcdef";
        return {digits[b >> 4], digits[b & 15]};
    }

    const uint8_t* take(uint64_t n) {
        if (n > size_ - pos_) fail("is truncated (needs " + std::to_string(n) + " more bytes)");
        const uint8_t* p = data_ + pos_;
        pos_ += static_cast<size_t>(n);
        return p;
    }
    uint8_t readByte() { return *take(1); }
    // Little-endian unsigned integer of n <= 8 bytes.
    uint64_t readUnsigned(size_t n) {
        const uint8_t* p = take(n);
        uint64_t v = 0;
        for (size_t i = 0; i < n; ++i) v |= uint64_t(p[i]) << (8 * i);
        return v;
    }
    std::string readString(uint64_t n) {
        const uint8_t* p = take(n);
        return std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(n));
    }
    std::string readLine() {
        const void* nl = std::memchr(data_ + pos_, '\n', size_ - pos_);
        if (!nl) fail("has an unterminated text argument");
        const size_t len = static_cast<const uint8_t*>(nl) - (data_ + pos_);
        std::string line = readString(len);
        ++pos_;
        return line;
    }
    int64_t parseInt(const std::string& text) {
        try {
            size_t used = 0;
            const int64_t v = std::stoll(text, &used);
            if (used == text.size() || (used + 1 == text.size() && text.back() == 'L')) return v;
        } catch (const std::exception&) {
        }
        fail("has a malformed integer '" + text + "'");
    }

    void push(ValuePtr v) { stack_.push_back(std::move(v)); }
    ValuePtr pop() {
        if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) fail("pops an empty stack");
        ValuePtr v = std::move(stack_.back());
        stack_.pop_back();
        return v;
    }
    ValuePtr& top() {
        if (stack_.empty()) fail("reads an empty stack");
        return stack_.back();
    }
    // Items pushed since the last MARK; the mark is consumed.
    std::vector<ValuePtr> popMark() {
        if (marks_.empty()) fail("has no MARK to pop to");
        const size_t start = marks_.back();
        marks_.pop_back();
        std::vector<ValuePtr> items(stack_.begin() + start, stack_.end());
        stack_.resize(start);
        return items;
    }

    ValuePtr makeTuple(std::vector<ValuePtr> items) {
        auto t = Value::make(Kind::Tuple);
        t->items = std::move(items);
        return t;
    }
    ValuePtr makeLong(const uint8_t* bytes, uint64_t n) {
        if (n > 8) return Value::makeText(Kind::Opaque, "int wider than 64 bits");
        uint64_t v = 0;
        for (uint64_t i = 0; i < n; ++i) v |= uint64_t(bytes[i]) << (8 * i);
        if (n > 0 && n < 8 && (bytes[n - 1] & 0x80)) v |= ~uint64_t(0) << (8 * n); // sign-extend
        return Value::makeInt(static_cast<int64_t>(v));
    }
    ValuePtr makeBool(bool b) {
        auto v = Value::make(Kind::Bool);
        v->integer = b;
        return v;
    }

    bool scalarOp(uint8_t op);
    bool containerOp(uint8_t op);
    bool memoOp(uint8_t op);
    bool objectOp(uint8_t op);
    void setItems(const ValuePtr& target, const std::vector<ValuePtr>& kv);
    void appendItems(const ValuePtr& target, const std::vector<ValuePtr>& items);
    ValuePtr call(const ValuePtr& callable, const ValuePtr& args);

    const uint8_t* data_;
    size_t size_;
    size_t pos_ = 0, op_pos_ = 0;
    const std::string& origin_;
    const UnpickleHooks& hooks_;
    std::vector<ValuePtr> stack_;
    std::vector<size_t> marks_;
    std::unordered_map<uint64_t, ValuePtr> memo_;
};

bool Machine::scalarOp(uint8_t op) {
    switch (op) {
    case PROTO: readByte(); return true;
    case FRAME: readUnsigned(8); return true; // frames only group bytes; nothing to do
    case NONE: push(Value::make(Kind::None)); return true;
    case NEWTRUE: push(makeBool(true)); return true;
    case NEWFALSE: push(makeBool(false)); return true;
    case BININT: push(Value::makeInt(static_cast<int32_t>(readUnsigned(4)))); return true;
    case BININT1: push(Value::makeInt(readUnsigned(1))); return true;
    case BININT2: push(Value::makeInt(readUnsigned(2))); return true;
    case LONG1: { const uint64_t n = readUnsigned(1); push(makeLong(take(n), n)); return true; }
    case LONG4: { const uint64_t n = readUnsigned(4); push(makeLong(take(n), n)); return true; }
    case INT: {
        const std::string line = readLine();
        if (line == "00" || line == "01") push(makeBool(line == "01"));
        else push(Value::makeInt(parseInt(line)));
        return true;
    }
    case LONG: push(Value::makeInt(parseInt(readLine()))); return true;
    case BINFLOAT: {
        uint64_t bits = 0;
        for (const uint8_t* p = take(8), *e = p + 8; p < e; ++p) bits = (bits << 8) | *p;
        auto v = Value::make(Kind::Float);
        std::memcpy(&v->real, &bits, sizeof bits); // big-endian IEEE double
        push(v);
        return true;
    }
    case FLOAT: {
        auto v = Value::make(Kind::Float);
        const std::string line = readLine();
        try { v->real = std::stod(line); } catch (const std::exception&) { fail("has a malformed float '" + line + "'"); }
        push(v);
        return true;
    }
    case UNICODE: push(Value::makeText(Kind::String, decodeRawUnicodeEscape(readLine()))); return true;
    case SHORT_BINUNICODE: push(Value::makeText(Kind::String, readString(readUnsigned(1)))); return true;
    case BINUNICODE: push(Value::makeText(Kind::String, readString(readUnsigned(4)))); return true;
    case BINUNICODE8: push(Value::makeText(Kind::String, readString(readUnsigned(8)))); return true;
    case SHORT_BINSTRING: push(Value::makeText(Kind::Bytes, readString(readUnsigned(1)))); return true;
    case BINSTRING: push(Value::makeText(Kind::Bytes, readString(readUnsigned(4)))); return true;
    case SHORT_BINBYTES: push(Value::makeText(Kind::Bytes, readString(readUnsigned(1)))); return true;
    case BINBYTES: push(Value::makeText(Kind::Bytes, readString(readUnsigned(4)))); return true;
    case BINBYTES8:
    case BYTEARRAY8: push(Value::makeText(Kind::Bytes, readString(readUnsigned(8)))); return true;
    default: return false;
    }
}

bool Machine::containerOp(uint8_t op) {
    switch (op) {
    case MARK: marks_.push_back(stack_.size()); return true;
    case POP: pop(); return true;
    case POP_MARK: popMark(); return true;
    case DUP: push(top()); return true;
    case EMPTY_TUPLE: push(makeTuple({})); return true;
    case TUPLE: push(makeTuple(popMark())); return true;
    case TUPLE1: { auto a = pop(); push(makeTuple({a})); return true; }
    case TUPLE2: { auto b = pop(), a = pop(); push(makeTuple({a, b})); return true; }
    case TUPLE3: { auto c = pop(), b = pop(), a = pop(); push(makeTuple({a, b, c})); return true; }
    case EMPTY_LIST: push(Value::make(Kind::List)); return true;
    case EMPTY_SET: push(Value::make(Kind::List)); return true;
    case LIST:
    case FROZENSET: { auto l = Value::make(Kind::List); l->items = popMark(); push(l); return true; }
    case APPEND: { auto v = pop(); appendItems(top(), {v}); return true; }
    case APPENDS:
    case ADDITEMS: { auto items = popMark(); appendItems(top(), items); return true; }
    case EMPTY_DICT: push(Value::make(Kind::Dict)); return true;
    case DICT: { auto d = Value::make(Kind::Dict); setItems(d, popMark()); push(d); return true; }
    case SETITEM: { auto v = pop(), k = pop(); setItems(top(), {k, v}); return true; }
    case SETITEMS: { auto kv = popMark(); setItems(top(), kv); return true; }
    default: return false;
    }
}

bool Machine::memoOp(uint8_t op) {
    uint64_t key = 0;
    switch (op) {
    case PUT: key = static_cast<uint64_t>(parseInt(readLine())); break;
    case BINPUT: key = readUnsigned(1); break;
    case LONG_BINPUT: key = readUnsigned(4); break;
    case MEMOIZE: key = memo_.size(); break;
    case GET: key = static_cast<uint64_t>(parseInt(readLine())); break;
    case BINGET: key = readUnsigned(1); break;
    case LONG_BINGET: key = readUnsigned(4); break;
    default: return false;
    }
    if (op == GET || op == BINGET || op == LONG_BINGET) {
        const auto found = memo_.find(key);
        if (found == memo_.end()) fail("refers to memo entry " + std::to_string(key) + " that was never stored");
        push(found->second);
    } else {
        memo_[key] = top();
    }
    return true;
}

bool Machine::objectOp(uint8_t op) {
    switch (op) {
    case GLOBAL: {
        std::string module = readLine();
        push(Value::makeText(Kind::Global, module + "." + readLine()));
        return true;
    }
    case STACK_GLOBAL: {
        auto name = pop(), module = pop();
        if (name->kind != Kind::String || module->kind != Kind::String) fail("has a STACK_GLOBAL without string names");
        push(Value::makeText(Kind::Global, module->text + "." + name->text));
        return true;
    }
    case REDUCE:
    case NEWOBJ: { auto args = pop(), callable = pop(); push(call(callable, args)); return true; }
    case NEWOBJ_EX: { pop(); auto args = pop(), cls = pop(); push(call(cls, args)); return true; }
    case BUILD: pop(); top(); return true; // object state (__setstate__): not needed for tensors
    case BINPERSID:
    case PERSID: {
        auto pid = op == PERSID ? Value::makeText(Kind::String, readLine()) : pop();
        if (!hooks_.persistent_load) fail("has a persistent id but the file holds no storages");
        push(hooks_.persistent_load(pid));
        return true;
    }
    default: return false;
    }
}

void Machine::setItems(const ValuePtr& target, const std::vector<ValuePtr>& kv) {
    if (kv.size() % 2) fail("has an odd number of items for a dict");
    if (target->kind == Kind::Opaque) return; // a dict subclass we do not model
    if (target->kind != Kind::Dict) fail(std::string("sets dict items on a ") + kindName(target->kind));
    for (size_t i = 0; i < kv.size(); i += 2) target->setItem(kv[i], kv[i + 1]);
}

void Machine::appendItems(const ValuePtr& target, const std::vector<ValuePtr>& items) {
    if (target->kind == Kind::Opaque) return;
    if (target->kind != Kind::List) fail(std::string("appends to a ") + kindName(target->kind));
    target->items.insert(target->items.end(), items.begin(), items.end());
}

ValuePtr Machine::call(const ValuePtr& callable, const ValuePtr& args) {
    if (args->kind != Kind::Tuple) fail("calls an object with non-tuple arguments");
    if (callable->kind != Kind::Global) return Value::makeText(Kind::Opaque, "result of a call");
    if (hooks_.call) {
        if (ValuePtr built = hooks_.call(callable->text, args->items)) return built;
    }
    return Value::makeText(Kind::Opaque, callable->text);
}

} // namespace

ValuePtr unpickle(const uint8_t* data, size_t size, const std::string& origin,
                  const UnpickleHooks& hooks) {
    return Machine(data, size, origin, hooks).run();
}

} // namespace ts::pickle
