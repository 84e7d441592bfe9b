#include "pickle/Unpickler.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "pickle/PickleError.h"
#include "pickle/PickleOpcodes.h"

namespace ts::pickle {
namespace {

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

// Hex digits of the \\uXXXX or \\UXXXXXXXX escape starting at raw[i]; 0 if none.
size_t escapeDigits(const std::string& raw, size_t i) {
    if (raw[i] != '\\' || i + 1 >= raw.size()) return 0;
    const size_t digits = raw[i + 1] == 'u' ? 4 : raw[i + 1] == 'U' ? 8 : 0;
    if (digits == 0 || i + 2 + digits > raw.size()) return 0;
    const auto first = raw.begin() + long(i + 2);
    const bool hex = std::all_of(first, first + long(digits), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c)) != 0;
    });
    return hex ? digits : 0;
}

// Protocol 0's UNICODE argument is "raw-unicode-escape": latin-1 bytes plus
// \\uXXXX / \\UXXXXXXXX escapes. Returns UTF-8.
std::string decodeRawUnicodeEscape(const std::string& raw) {
    std::string out;
    for (size_t i = 0; i < raw.size(); ++i) {
        if (const size_t digits = escapeDigits(raw, i)) {
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
            if (!numberOp(op) && !textOp(op) && !stackOp(op) && !collectionOp(op) && !memoOp(op) &&
                !objectOp(op))
                fail("unsupported pickle opcode 0x" + hex(op));
        }
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw PickleError("Cannot read " + origin_ + ": " + what + " at pickle byte " +
                          std::to_string(op_pos_) +
                          " (a corrupt file, or a pickle feature this reader does not support).");
    }
    static std::string hex(uint8_t b) {
        const char* digits = "0123456789abcdef";
        return {digits[b >> 4], digits[b & 15]};
    }

    const uint8_t* take(uint64_t n) {
        if (n > size_ - pos_) fail("data ends early (" + std::to_string(n) + " more bytes needed)");
        const uint8_t* p = data_ + pos_;
        pos_ += static_cast<size_t>(n);
        return p;
    }
    uint8_t readByte() { return *take(1); }
    // Little-endian unsigned integer of n <= 8 bytes.
    uint64_t readUnsigned(size_t n) {
        const uint8_t* p = take(n);
        uint64_t v = 0;
        for (size_t i = 0; i < n; ++i)
            v |= uint64_t(p[i]) << (8 * i);
        return v;
    }
    std::string readString(uint64_t n) {
        const uint8_t* p = take(n);
        return std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(n));
    }
    std::string readLine() {
        const void* nl = std::memchr(data_ + pos_, '\n', size_ - pos_);
        if (!nl) fail("unterminated text argument");
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
        fail("malformed integer '" + text + "'");
    }

    void push(ValuePtr v) { stack_.push_back(std::move(v)); }
    // A value that may already sit inside a container (memo, DUP, a hook's
    // result): only such a value can become a container that holds itself.
    void pushAgain(ValuePtr v) {
        if (v && (v->kind == Kind::List || v->kind == Kind::Dict)) pushed_again_.insert(v.get());
        push(std::move(v));
    }
    ValuePtr pop() {
        if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) fail("pop from an empty stack");
        ValuePtr v = std::move(stack_.back());
        stack_.pop_back();
        return v;
    }
    ValuePtr& top() {
        if (stack_.empty()) fail("read from an empty stack");
        return stack_.back();
    }
    // The last n items, in push order.
    std::vector<ValuePtr> popLast(size_t n) {
        const size_t floor = marks_.empty() ? 0 : marks_.back();
        if (stack_.size() < floor + n) fail("pop from an empty stack");
        std::vector<ValuePtr> items(stack_.end() - long(n), stack_.end());
        stack_.resize(stack_.size() - n);
        return items;
    }
    // Drops the last MARK and returns how many items were pushed after it.
    size_t popMarkCount() {
        if (marks_.empty()) fail("no MARK to pop to");
        const size_t count = stack_.size() - marks_.back();
        marks_.pop_back();
        return count;
    }
    // Items pushed since the last MARK; the mark is consumed.
    std::vector<ValuePtr> popMark() {
        if (marks_.empty()) fail("no MARK to pop to");
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
    ValuePtr makeBool(bool b) {
        auto v = Value::make(Kind::Bool);
        v->integer = b;
        return v;
    }

    bool numberOp(uint8_t op);
    bool textOp(uint8_t op);
    bool stackOp(uint8_t op);
    bool collectionOp(uint8_t op);
    bool memoOp(uint8_t op);
    bool objectOp(uint8_t op);
    void pushLong(uint64_t n);
    void pushTupleOfLast(size_t n);
    void pushList(std::vector<ValuePtr> items);
    void pushDict(const std::vector<ValuePtr>& kv);
    void appendPopped(size_t n);
    void setPopped(size_t n);
    void pushTextInt(const std::string& line);
    void pushBinFloat();
    void pushTextFloat(const std::string& line);
    void pushText(Kind kind, std::string text) { push(Value::makeText(kind, std::move(text))); }
    void refuseCycles(const Value* target, const std::vector<ValuePtr>& inserted) const;
    void setItems(const ValuePtr& target, const std::vector<ValuePtr>& kv);
    void appendItems(const ValuePtr& target, const std::vector<ValuePtr>& items);
    void pushGlobal(const std::string& module, const std::string& name);
    void pushTextGlobal();
    void pushStackGlobal();
    // BUILD: an object's __setstate__ data, which nothing we build needs.
    void dropState() {
        pop();
        top();
    }
    void pushPersistent(const ValuePtr& pid);
    void pushCall(const std::vector<ValuePtr>& callable_args);

    const uint8_t* data_;
    size_t size_;
    size_t pos_ = 0, op_pos_ = 0;
    const std::string& origin_;
    const UnpickleHooks& hooks_;
    std::vector<ValuePtr> stack_;
    std::vector<size_t> marks_;
    std::unordered_map<uint64_t, ValuePtr> memo_;
    std::unordered_set<const Value*> pushed_again_; // lists and dicts (pushAgain)
};

bool Machine::numberOp(uint8_t op) {
    switch (op) {
    case PROTO:
        readByte();
        break;
    case FRAME:
        readUnsigned(8);
        break; // frames only group bytes; nothing to do
    case NONE:
        push(Value::make(Kind::None));
        break;
    case NEWTRUE:
        push(makeBool(true));
        break;
    case NEWFALSE:
        push(makeBool(false));
        break;
    case BININT:
        push(Value::makeInt(static_cast<int32_t>(readUnsigned(4))));
        break;
    case BININT1:
        push(Value::makeInt(readUnsigned(1)));
        break;
    case BININT2:
        push(Value::makeInt(readUnsigned(2)));
        break;
    case LONG1:
        pushLong(readUnsigned(1));
        break;
    case LONG4:
        pushLong(readUnsigned(4));
        break;
    case INT:
        pushTextInt(readLine());
        break;
    case LONG:
        push(Value::makeInt(parseInt(readLine())));
        break;
    case BINFLOAT:
        pushBinFloat();
        break;
    case FLOAT:
        pushTextFloat(readLine());
        break;
    default:
        return false;
    }
    return true;
}

bool Machine::textOp(uint8_t op) {
    switch (op) {
    case UNICODE:
        pushText(Kind::String, decodeRawUnicodeEscape(readLine()));
        break;
    case SHORT_BINUNICODE:
        pushText(Kind::String, readString(readUnsigned(1)));
        break;
    case BINUNICODE:
        pushText(Kind::String, readString(readUnsigned(4)));
        break;
    case BINUNICODE8:
        pushText(Kind::String, readString(readUnsigned(8)));
        break;
    case SHORT_BINSTRING:
    case SHORT_BINBYTES:
        pushText(Kind::Bytes, readString(readUnsigned(1)));
        break;
    case BINSTRING:
    case BINBYTES:
        pushText(Kind::Bytes, readString(readUnsigned(4)));
        break;
    case BINBYTES8:
    case BYTEARRAY8:
        pushText(Kind::Bytes, readString(readUnsigned(8)));
        break;
    default:
        return false;
    }
    return true;
}

void Machine::pushLong(uint64_t n) {
    const uint8_t* bytes = take(n);
    if (n > 8) {
        push(Value::makeText(Kind::Opaque, "int wider than 64 bits"));
        return;
    }
    uint64_t v = 0;
    for (uint64_t i = 0; i < n; ++i)
        v |= uint64_t(bytes[i]) << (8 * i);
    if (n > 0 && n < 8 && (bytes[n - 1] & 0x80)) v |= ~uint64_t(0) << (8 * n); // sign-extend
    push(Value::makeInt(static_cast<int64_t>(v)));
}

// Protocol 0 writes booleans as INT "00" / "01".
void Machine::pushTextInt(const std::string& line) {
    if (line == "00" || line == "01")
        push(makeBool(line == "01"));
    else
        push(Value::makeInt(parseInt(line)));
}

void Machine::pushBinFloat() {
    uint64_t bits = 0;
    for (const uint8_t *p = take(8), *end = p + 8; p < end; ++p)
        bits = (bits << 8) | *p;
    auto v = Value::make(Kind::Float);
    std::memcpy(&v->real, &bits, sizeof bits); // big-endian IEEE double
    push(v);
}

void Machine::pushTextFloat(const std::string& line) {
    auto v = Value::make(Kind::Float);
    try {
        v->real = std::stod(line);
    } catch (const std::exception&) {
        fail("malformed float '" + line + "'");
    }
    push(v);
}

bool Machine::stackOp(uint8_t op) {
    switch (op) {
    case MARK:
        marks_.push_back(stack_.size());
        break;
    case POP:
        pop();
        break;
    case POP_MARK:
        popMark();
        break;
    case DUP:
        pushAgain(top());
        break;
    case EMPTY_TUPLE:
        push(makeTuple({}));
        break;
    case TUPLE:
        push(makeTuple(popMark()));
        break;
    case TUPLE1:
        pushTupleOfLast(1);
        break;
    case TUPLE2:
        pushTupleOfLast(2);
        break;
    case TUPLE3:
        pushTupleOfLast(3);
        break;
    default:
        return false;
    }
    return true;
}

// Sets become lists: checkpoints only need their items.
bool Machine::collectionOp(uint8_t op) {
    switch (op) {
    case EMPTY_LIST:
    case EMPTY_SET:
        push(Value::make(Kind::List));
        break;
    case LIST:
    case FROZENSET:
        pushList(popMark());
        break;
    case APPEND:
        appendPopped(1);
        break;
    case APPENDS:
    case ADDITEMS:
        appendPopped(popMarkCount());
        break;
    case EMPTY_DICT:
        push(Value::make(Kind::Dict));
        break;
    case DICT:
        pushDict(popMark());
        break;
    case SETITEM:
        setPopped(2);
        break;
    case SETITEMS:
        setPopped(popMarkCount());
        break;
    default:
        return false;
    }
    return true;
}

void Machine::pushTupleOfLast(size_t n) {
    push(makeTuple(popLast(n)));
}

void Machine::pushList(std::vector<ValuePtr> items) {
    auto list = Value::make(Kind::List);
    list->items = std::move(items);
    push(list);
}

void Machine::pushDict(const std::vector<ValuePtr>& kv) {
    auto dict = Value::make(Kind::Dict);
    setItems(dict, kv);
    push(dict);
}

void Machine::appendPopped(size_t n) {
    const std::vector<ValuePtr> items = popLast(n);
    appendItems(top(), items);
}

void Machine::setPopped(size_t n) {
    const std::vector<ValuePtr> kv = popLast(n);
    setItems(top(), kv);
}

bool Machine::memoOp(uint8_t op) {
    uint64_t key = 0;
    switch (op) {
    case PUT:
        key = static_cast<uint64_t>(parseInt(readLine()));
        break;
    case BINPUT:
        key = readUnsigned(1);
        break;
    case LONG_BINPUT:
        key = readUnsigned(4);
        break;
    case MEMOIZE:
        key = memo_.size();
        break;
    case GET:
        key = static_cast<uint64_t>(parseInt(readLine()));
        break;
    case BINGET:
        key = readUnsigned(1);
        break;
    case LONG_BINGET:
        key = readUnsigned(4);
        break;
    default:
        return false;
    }
    if (op == GET || op == BINGET || op == LONG_BINGET) {
        const auto found = memo_.find(key);
        if (found == memo_.end())
            fail("memo entry " + std::to_string(key) + " read before it was stored");
        pushAgain(found->second);
    } else {
        memo_[key] = top();
    }
    return true;
}

bool Machine::objectOp(uint8_t op) {
    switch (op) {
    case GLOBAL:
        pushTextGlobal();
        break;
    case STACK_GLOBAL:
        pushStackGlobal();
        break;
    case REDUCE:
    case NEWOBJ:
        pushCall(popLast(2));
        break;
    case NEWOBJ_EX:
        pushCall(popLast(3));
        break; // kwargs: unused by what we build
    case BUILD:
        dropState();
        break;
    case BINPERSID:
        pushPersistent(pop());
        break;
    case PERSID:
        pushPersistent(Value::makeText(Kind::String, readLine()));
        break;
    default:
        return false;
    }
    return true;
}

void Machine::pushGlobal(const std::string& module, const std::string& name) {
    push(Value::makeText(Kind::Global, module + "." + name));
}

// Protocol 0-3: GLOBAL "module\nname\n".
void Machine::pushTextGlobal() {
    const std::string module = readLine();
    const std::string name = readLine();
    pushGlobal(module, name);
}

void Machine::pushStackGlobal() {
    const std::vector<ValuePtr> names = popLast(2);
    if (names[0]->kind != Kind::String || names[1]->kind != Kind::String)
        fail("STACK_GLOBAL without string names");
    pushGlobal(names[0]->text, names[1]->text);
}

void Machine::pushPersistent(const ValuePtr& pid) {
    if (!hooks_.persistent_load) fail("persistent id in a pickle without storages");
    pushAgain(hooks_.persistent_load(pid));
}

// Python may pickle a list or dict that holds itself; values here are shared
// pointers, which such a cycle would leak. No checkpoint has one: refused.
void Machine::refuseCycles(const Value* target, const std::vector<ValuePtr>& inserted) const {
    // A container pushed once was taken off the stack by whatever holds it:
    // it can only be the target again through the memo, DUP or a hook. The
    // others need no walk (a deep nest of fresh lists stays linear).
    if (pushed_again_.count(target) == 0) return;
    std::vector<const Value*> todo;
    std::unordered_set<const Value*> seen;
    for (const ValuePtr& v : inserted)
        if (!v->items.empty() || !v->entries.empty() || v.get() == target) todo.push_back(v.get());
    while (!todo.empty()) {
        const Value* v = todo.back();
        todo.pop_back();
        if (v == target) fail("an object that holds itself, which no checkpoint has");
        if (!seen.insert(v).second) continue;
        for (const ValuePtr& item : v->items)
            todo.push_back(item.get());
        for (const auto& [key, value] : v->entries) {
            todo.push_back(key.get());
            todo.push_back(value.get());
        }
    }
}

void Machine::setItems(const ValuePtr& target, const std::vector<ValuePtr>& kv) {
    if (kv.size() % 2) fail("odd number of items for a dict");
    if (target->kind == Kind::Opaque) return; // a dict subclass we do not model
    if (target->kind != Kind::Dict)
        fail(std::string("dict items set on a ") + kindName(target->kind));
    refuseCycles(target.get(), kv);
    for (size_t i = 0; i < kv.size(); i += 2)
        target->setItem(kv[i], kv[i + 1]);
}

void Machine::appendItems(const ValuePtr& target, const std::vector<ValuePtr>& items) {
    if (target->kind == Kind::Opaque) return;
    if (target->kind != Kind::List)
        fail(std::string("list items appended to a ") + kindName(target->kind));
    refuseCycles(target.get(), items);
    target->items.insert(target->items.end(), items.begin(), items.end());
}

// [callable, args]: known callables are built by the hooks, the rest stay opaque.
void Machine::pushCall(const std::vector<ValuePtr>& callable_args) {
    const ValuePtr& callable = callable_args[0];
    const ValuePtr& args = callable_args[1];
    if (args->kind != Kind::Tuple) fail("call with non-tuple arguments");
    ValuePtr built;
    if (callable->kind == Kind::Global && hooks_.call)
        built = hooks_.call(callable->text, args->items);
    if (!built)
        built = Value::makeText(Kind::Opaque, callable->kind == Kind::Global ? callable->text
                                                                             : "result of a call");
    pushAgain(built); // a hook may return a value it was given
}

} // namespace

ValuePtr unpickle(const uint8_t* data, size_t size, const std::string& origin,
                  const UnpickleHooks& hooks) {
    return Machine(data, size, origin, hooks).run();
}

} // namespace ts::pickle
