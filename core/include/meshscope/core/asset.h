// The format-agnostic Asset model that every decoder produces: a node tree (an rbxm instance tree
// or a mesh file's own structure), meshes, skeletons, FACS rigs, animations, diagnostics and the
// byte map. Nothing here knows about a particular file format or about Qt.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "meshscope/core/byte_map.h"
#include "meshscope/core/diagnostics.h"
#include "meshscope/core/types.h"

namespace meshscope {

// ---------------------------------------------------------------------------------------------
// Meshes

// LOD n is the triangle range [firstTriangle, firstTriangle + triangleCount) of Mesh::indices.
struct LodLevel {
    std::uint32_t firstTriangle = 0;
    std::uint32_t triangleCount = 0;
    std::string name;  // "LOD0", "high_lod" ...
};

// A sub-range of a mesh drawn with one material (a FileMesh subset, an SL face, a Unigine
// surface).
struct Surface {
    std::string name;
    std::uint32_t firstTriangle = 0;
    std::uint32_t triangleCount = 0;
    std::uint32_t firstVertex = 0;
    std::uint32_t vertexCount = 0;
};

// Up to four influences per vertex; `joints` index Skeleton::bones of the mesh's skeleton
// (already resolved through any subset-local tables). Unused slots have weight 0.
struct VertexInfluences {
    std::array<std::uint16_t, 4> joints{0, 0, 0, 0};
    std::array<float, 4> weights{0, 0, 0, 0};
};

// How a mesh's indices join its vertices: 3 a triangle, 2 a line segment, 1 a point (a point cloud,
// as a Draco stream may hold: the indices list the points drawn).
enum class Primitive : std::uint8_t { Triangles, Lines, Points };

// Indices a primitive takes.
constexpr std::size_t indicesPerPrimitive(Primitive p) {
    return p == Primitive::Triangles ? 3 : p == Primitive::Lines ? 2 : 1;
}

// A blend shape: per-vertex offsets added to the base mesh at weight 1.
struct MorphTarget {
    std::string name;
    std::vector<Vec3> positionDeltas;  // one per vertex (Mesh::positions.size())
    std::vector<Vec3> normalDeltas;    // empty, or one per vertex
};

// What a mesh's arrays held when its decoder left them in the file (Mesh::unloaded).
struct UnloadedArrays {
    std::size_t vertices = 0;
    std::size_t indices = 0;
    // false: an index is past the vertices (a failed decode's partial result); the indices are
    // then dropped with a warning, as loaded ones would be.
    bool indicesValid = true;
};

struct Mesh {
    std::string name;
    Primitive primitive = Primitive::Triangles;
    // Vertex streams: every non-empty stream has positions.size() entries.
    std::vector<Vec3> positions;
    std::vector<Vec3> normals;
    std::vector<Vec2> uv0;  // V grows downwards (Roblox / DirectX convention) in the whole core
    std::vector<Vec2> uv1;
    std::vector<Vec4> tangents;  // xyz + handedness sign in w
    std::vector<Rgba8> colors;
    // Triangle list (or line list) of every LOD together.
    std::vector<std::uint32_t> indices;
    std::vector<std::uint32_t> lodOffsets;  // LOD offsets exactly as stored ([] when none)
    std::vector<LodLevel> lods;             // resolved levels; at least one when indices exist
    std::vector<Surface> surfaces;
    std::vector<VertexInfluences> skin;     // empty, or one per vertex
    int skeleton = -1;                      // Asset::skeletons index
    int facs = -1;                          // Asset::facs index
    int node = -1;                          // Asset::nodes index of the node showing this mesh
    Bounds bounds;                          // over finite positions
    std::vector<MorphTarget> morphTargets;  // blend shapes (targets beyond the base geometry)
    // Set when the decode left the vertex and index arrays in the file (DecodeOptions::
    // loadGeometry false, and a decoder that can count and check them without loading them):
    // the vertex streams and indices are then empty, and these are the counts they would have;
    // bounds, LODs, surfaces, skin and the diagnostics are those a full decode gives.
    std::optional<UnloadedArrays> unloaded;

    std::size_t vertexCount() const { return unloaded ? unloaded->vertices : positions.size(); }
    std::size_t indexCount() const { return unloaded ? unloaded->indices : indices.size(); }
    std::size_t triangleCount() const {
        return primitive == Primitive::Triangles ? indexCount() / 3 : 0;
    }
    bool skinned() const { return !skin.empty(); }
    void computeBounds();
};

// ---------------------------------------------------------------------------------------------
// Skeletons, face rigs, animations

struct Bone {
    std::string name;
    int parent = -1;                  // index in Skeleton::bones, -1 for a root
    int lodParent = -1;               // FileMesh: parent at lower LODs
    Mat4 world;                       // bind pose, model space
    std::optional<Mat4> inverseBind;  // when the file stores one (Second Life); else inverse(world)
    float culling = 0;                // FileMesh: radius of influence
};

struct Skeleton {
    std::string name;
    std::vector<Bone> bones;
    int find(const std::string& name) const;
};

// Roblox FACS rig. Rows of each channel are face bones, columns are base controls, then the
// correctives in the order stored (two-pose first, then three-pose).
struct FacsRig {
    std::vector<std::string> controlNames;                // base controls ("c_JD" ...)
    std::vector<std::vector<std::uint16_t>> correctives;  // member control indices
    std::vector<std::string> boneNames;                   // face bones
    std::uint32_t rows = 0, cols = 0;
    // px, py, pz, rx, ry, rz; each rows × cols, row-major; rotations in degrees.
    std::array<std::vector<float>, 6> channels;

    std::size_t columnCount() const { return controlNames.size() + correctives.size(); }
    // Base names, then correctives named by joining members with "_".
    std::vector<std::string> columnNames() const;
    float value(int channel, std::uint32_t row, std::uint32_t col) const {
        return channels[channel][std::size_t(row) * cols + col];
    }
};

struct BoneTrack {
    std::string bone;
    // One entry per frame, or empty when that channel does not change.
    std::vector<Vec3> positions;
    std::vector<Vec4> rotations;  // quaternion xyzw
    std::vector<Vec3> scales;
};

// A FACS control's weight per frame (a CurveAnimation's FaceControls FloatCurve): the control as
// the curve names it ("JawDrop"), weights clamped into [0, 1].
struct FacsChannel {
    std::string control;
    std::vector<float> weights;  // one per frame
};

struct Animation {
    std::string name;
    float framesPerSecond = 30;
    std::uint32_t frameCount = 0;
    // > 0: frame f is at min(f / framesPerSecond, length) seconds, so the last frame of a baked
    // KeyframeSequence or CurveAnimation is at its length, off the frame grid (Dance, 1.0833 s:
    // 33 frames, the last at 1.0833 s, not 1.1 s). 0: frame f is at f / framesPerSecond.
    float length = 0;
    std::vector<BoneTrack> tracks;
    int skeleton = -1;  // skeleton the animation belongs to, when known
    // Seconds at which the source keys the pose (a KeyframeSequence's Keyframes), sorted: the
    // timeline's ticks. Empty when every frame is a key.
    std::vector<float> keyTimes;
    bool loop = false;  // the source asks to loop (KeyframeSequence.Loop)
    // FACS control weights per frame (glTF: morph-target weight channels); empty for most.
    std::vector<FacsChannel> facsChannels;
};

// ---------------------------------------------------------------------------------------------
// Nodes and properties

struct CFrame {
    Vec3 position;
    std::array<float, 9> rotation{1, 0, 0, 0, 1, 0, 0, 0, 1};  // row-major R00 R01 R02 R10 ...
    friend bool operator==(const CFrame&, const CFrame&) = default;
};

struct NodeRef {
    int node = -1;  // Asset::nodes index, -1 for nil
    friend bool operator==(const NodeRef&, const NodeRef&) = default;
};

// A SharedString property's value: the index of its content in Asset::sharedStrings, where each
// shared string is stored once however many values use it (a place's SSTR chunk or <SharedStrings>
// section). Read the content through Asset::sharedString (a view, no copy).
struct SharedStringRef {
    std::uint32_t index = 0;
    friend bool operator==(const SharedStringRef&, const SharedStringRef&) = default;
};

using Bytes = std::vector<std::uint8_t>;

// An allocator whose vectors leave the elements they grow by unset, for buffers that are written
// whole right after (a chunk inflated into them): zeroing them first would write each byte twice.
template <typename T>
struct UninitializedAllocator : std::allocator<T> {
    template <typename U>
    struct rebind {
        using other = UninitializedAllocator<U>;
    };
    UninitializedAllocator() = default;
    template <typename U>
    UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
    template <typename U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};
// Bytes that resize() does not zero.
using UninitializedBytes = std::vector<std::uint8_t, UninitializedAllocator<std::uint8_t>>;

// A property column's bytes: bytes of its own, or a view of bytes its Asset keeps alive
// (Asset::storage: a binary model's chunks, several columns' bytes in one block). resize(),
// assign() and append() make them the column's own (a view's bytes are copied first); new
// bytes are left unset. A copy of a view is a view of the same bytes: it must not outlive the
// Asset's storage.
class ColumnBytes {
public:
    ColumnBytes() = default;
    ColumnBytes(std::initializer_list<std::uint8_t> bytes) { assign(bytes.begin(), bytes.end()); }
    ColumnBytes(const ColumnBytes& o) {
        if (o.capacity_)
            assign(o.data_, o.data_ + o.size_);
        else
            view(o.data_, o.size_);
    }
    ColumnBytes(ColumnBytes&& o) noexcept
        : data_(std::exchange(o.data_, nullptr)),
          size_(std::exchange(o.size_, 0)),
          capacity_(std::exchange(o.capacity_, 0)) {}
    ColumnBytes& operator=(ColumnBytes o) noexcept {
        std::swap(data_, o.data_);
        std::swap(size_, o.size_);
        std::swap(capacity_, o.capacity_);
        return *this;
    }
    ~ColumnBytes() { release(); }

    // Refers to [data, data + size) without copying them (kept alive by the Asset's storage).
    void view(const std::uint8_t* data, std::size_t size) {
        release();
        data_ = const_cast<std::uint8_t*>(data);
        size_ = size;
    }
    bool isView() const { return capacity_ == 0 && size_ != 0; }

    const std::uint8_t* data() const { return data_; }
    std::uint8_t* data() { return own(size_); }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const std::uint8_t* begin() const { return data_; }
    const std::uint8_t* end() const { return data_ + size_; }
    std::uint8_t operator[](std::size_t i) const { return data_[i]; }

    void clear() { release(); }
    void resize(std::size_t n) {
        own(n);
        size_ = n;
    }
    void assign(const std::uint8_t* first, const std::uint8_t* last) {
        const std::size_t n = std::size_t(last - first);
        release();
        if (n) std::memcpy(own(n), first, n);
        size_ = n;
    }
    void append(const std::uint8_t* first, const std::uint8_t* last) {
        const std::size_t n = std::size_t(last - first), at = size_;
        if (!n) return;
        std::uint8_t* p = own(at + n);
        std::memcpy(p + at, first, n);
        size_ = at + n;
    }

private:
    // Owned room for `n` bytes at least, the current ones kept; returns the data.
    std::uint8_t* own(std::size_t n) {
        if (capacity_ && n <= capacity_) return data_;
        if (!capacity_ && !n) return data_;
        const std::size_t room = std::max(n, capacity_ * 2);
        const std::size_t keep = std::min(size_, n);
        auto* p = static_cast<std::uint8_t*>(::operator new(room));
        if (keep) std::memcpy(p, data_, keep);
        release();
        data_ = p;
        size_ = keep;
        capacity_ = room;
        return data_;
    }
    void release() {
        if (capacity_) ::operator delete(data_);
        data_ = nullptr;
        size_ = 0;
        capacity_ = 0;
    }
    std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;  // 0: a view (or empty)
};

// A property column's numbers: trivially copyable elements of the one type its storage names
// (see PropertyColumn::Storage). One of these serves every number type, so a column holds one
// array, not one per type (a place has thousands of columns, most of them of one row: a copy or
// a free of a column is then one branch for its numbers, not five), and up to 8 bytes of them
// (one row of most types) are held in place, with no allocation. New elements are left unset.
class ColumnNumbers {
public:
    ColumnNumbers() = default;
    ColumnNumbers(const ColumnNumbers& o) {
        if (o.size_ > sizeof(small_)) {
            heap_ = ::operator new(o.size_);
            capacity_ = o.size_;
        }
        if (o.size_) std::memcpy(bytes(), o.bytes(), o.size_);
        size_ = o.size_;
    }
    ColumnNumbers(ColumnNumbers&& o) noexcept { take(o); }
    ColumnNumbers& operator=(const ColumnNumbers& o) {
        if (this != &o) *this = ColumnNumbers(o);
        return *this;
    }
    ColumnNumbers& operator=(ColumnNumbers&& o) noexcept {
        if (this != &o) {
            release();
            take(o);
        }
        return *this;
    }
    ~ColumnNumbers() { release(); }

    // Whole elements of type T held.
    template <typename T>
    std::size_t size() const {
        return size_ / sizeof(T);
    }
    bool empty() const { return size_ == 0; }
    template <typename T>
    std::span<const T> view() const {
        static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= 8);
        return {reinterpret_cast<const T*>(bytes()), size_ / sizeof(T)};
    }
    template <typename T>
    std::span<T> view() {
        static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= 8);
        return {reinterpret_cast<T*>(bytes()), size_ / sizeof(T)};
    }
    // Room for n elements of T, the current bytes kept.
    template <typename T>
    void reserve(std::size_t n) {
        if (n * sizeof(T) > room()) grow(n * sizeof(T));
    }
    // n elements of T, the current ones kept and the new ones unset; returns the first.
    template <typename T>
    T* resize(std::size_t n) {
        reserve<T>(n);
        size_ = n * sizeof(T);
        return view<T>().data();
    }
    template <typename T>
    void push(const T& v) {
        if (size_ + sizeof(T) > room()) grow(std::max(size_ + sizeof(T), room() * 2));
        std::memcpy(bytes() + size_, &v, sizeof(T));
        size_ += sizeof(T);
    }
    template <typename T>
    void assign(std::initializer_list<T> v) {
        std::copy(v.begin(), v.end(), resize<T>(v.size()));
    }
    void clear() { size_ = 0; }

private:
    std::uint8_t* bytes() { return capacity_ ? static_cast<std::uint8_t*>(heap_) : small_; }
    const std::uint8_t* bytes() const {
        return capacity_ ? static_cast<const std::uint8_t*>(heap_) : small_;
    }
    std::size_t room() const { return capacity_ ? capacity_ : sizeof(small_); }
    void grow(std::size_t n) {
        auto* p = static_cast<std::uint8_t*>(::operator new(n));
        if (size_) std::memcpy(p, bytes(), size_);
        release();
        heap_ = p;
        capacity_ = n;
    }
    void release() {
        if (capacity_) ::operator delete(heap_);
        capacity_ = 0;
    }
    // Empties o into this (released before).
    void take(ColumnNumbers& o) {
        if (o.capacity_)
            heap_ = o.heap_;
        else if (o.size_)
            std::memcpy(small_, o.small_, o.size_);
        size_ = std::exchange(o.size_, 0);
        capacity_ = std::exchange(o.capacity_, 0);
    }
    union {
        void* heap_ = nullptr;              // capacity_ bytes
        alignas(8) std::uint8_t small_[8];  // the elements while capacity_ is 0
    };
    std::size_t size_ = 0;      // bytes
    std::size_t capacity_ = 0;  // 0: in small_
};

// A typed property value. `std::vector<double>` holds numeric tuples (UDim2, Rect, ranges,
// sequences ...); its meaning is given by Property::type. A decoded SharedString is a
// SharedStringRef into its Asset (a std::string value is accepted too, e.g. by the writer).
using Value = std::variant<std::monostate, bool, std::int64_t, double, std::string, Bytes, Vec2,
                           Vec3, Vec4, CFrame, NodeRef, std::vector<double>, SharedStringRef>;

struct Property {
    // Constructors of its own so that a new property (emplace_back(): an XML model's every
    // property) is not zero-filled whole and then constructed member by member, which
    // value-initialization does to a class without one (a `rep stos` of 136 bytes).
    Property() {}
    Property(std::string name_, std::string type_, Value value_, std::uint64_t offset_ = 0,
             std::uint64_t length_ = 0)
        : name(std::move(name_)),
          type(std::move(type_)),
          value(std::move(value_)),
          offset(offset_),
          length(length_) {}

    std::string name;
    std::string type;  // "int32", "CFrame", "Color3", "string", "BinaryString" ...
    Value value;
    std::uint64_t offset = 0;  // where the value's bytes are, when known
    std::uint64_t length = 0;
};

// Property values stored column by column, the way a binary model stores them: a PropertyTable
// holds the properties a group of nodes share (one table per INST chunk of a binary model) and
// one PropertyColumn per property (one per PROP chunk). Node `table`/`row` say where a node's
// values are. Names and types are stored once per column, and `offset`/`length` once per column
// too (every value of a column has the same source range: the values array, or the chunk). A
// column with fewer rows than its table (a chunk that failed part way) gives values to the first
// rows only.
struct PropertyColumn {
    enum class Storage : std::uint8_t {
        Bool,    // bytes: 0 / 1                              -> bool
        Int32,   // u32s: bit pattern of an int32             -> int64
        UInt32,  // u32s                                      -> int64
        Double,  // doubles                                   -> double
        Vec2,    // vec2s
        Vec3,    // vec3s
        Ref,     // refs: node index, -1 for nil              -> NodeRef
        String,  // bytes + ends: row r is bytes[start(r), ends[r])  -> std::string
                 // (or rows of recordSize bytes each, see `ends`)
        Binary,  // bytes + ends, as String                   -> Bytes
        Tuple,   // doubles + ends                            -> std::vector<double>
        Record,  // bytes: recordSize byte planes of rows() bytes from `first` (byte b of row
                 // r at bytes[first + b * rows() + r]), after each row's head when headSize
                 // is set; `record` turns one row's bytes into a Value (int64, float, CFrame,
                 // UDim ... values of a binary model)
        Values,  // values: anything else
        Shared,  // u32s: Asset::sharedStrings index, kNoSharedString for none  -> SharedStringRef
                 // (monostate for kNoSharedString)
    };
    static constexpr std::uint32_t kNoSharedString = 0xffffffffu;

    // Every member has its initializer; a constructor of its own so that a new column (one per
    // PROP chunk, thousands in a place) is not zero-filled as a whole first and then initialized
    // (what value-initialization, emplace_back(), does to a class without one: a `rep stos` of
    // 176 bytes, a tenth of all-instances-415/binary.rbxl's chunk handling in time).
    PropertyColumn() {}

    // Not owned by the column either: static text, or bytes its Asset keeps (Asset::storage, as
    // ColumnBytes views are kept). A place has thousands of columns, each a name to keep.
    std::string_view name;
    // Property::type: a static name ("int32", "CFrame" ...), not owned by the column (a place
    // has thousands of columns and a few dozen types).
    std::string_view type;
    Storage storage = Storage::Values;
    // String / Binary: bytes before each row (a binary model's 4-byte length prefixes).
    std::uint32_t rowPrefix = 0;
    std::uint64_t offset = 0;  // source bytes of every value of the column
    std::uint64_t length = 0;

    ColumnBytes bytes;  // resize() leaves new bytes unset
    // Int32, UInt32, Shared and a Record's heads: uint32 (u32s()); Double and Tuple: double
    // (doubles()); Vec2; Vec3; Ref: int32 (refs()). Other storages keep none.
    ColumnNumbers numbers;
    // String / Binary / Tuple: end of row r. String and Binary row r starts at start(r) =
    // (r ? ends[r - 1] : first) + rowPrefix; Tuple row r at r ? ends[r - 1] : 0. A String or
    // Binary column whose rows all take the same bytes has no ends: its recordSize says how many
    // (rowPrefix included), and row r starts at first + r * recordSize + rowPrefix.
    std::vector<std::uint64_t, UninitializedAllocator<std::uint64_t>> ends;
    std::vector<Value> values;
    // Record: plane bytes a row (headSize + recordSize at most 64). String / Binary without
    // ends: bytes a row.
    std::uint32_t recordSize = 0;
    // Record: when non-zero, row r begins with a head of up to headSize bytes from
    // bytes[u32s[r]] (a binary model's CFrame rotation: an id byte, then a matrix when the id is
    // 0), zero-padded past the end of `bytes`, and its plane bytes follow the head.
    std::uint32_t headSize = 0;
    Value (*record)(const std::uint8_t* bytes) = nullptr;
    // String / Binary / Record: where the rows begin in `bytes`. A binary model's column keeps
    // its chunk's inflated bytes as they are, header and all, rather than a copy of its rows.
    std::uint64_t first = 0;

    std::span<const std::uint32_t> u32s() const { return numbers.view<std::uint32_t>(); }
    std::span<std::uint32_t> u32s() { return numbers.view<std::uint32_t>(); }
    std::span<const double> doubles() const { return numbers.view<double>(); }
    std::span<const Vec2> vec2s() const { return numbers.view<Vec2>(); }
    std::span<const Vec3> vec3s() const { return numbers.view<Vec3>(); }
    std::span<const std::int32_t> refs() const { return numbers.view<std::int32_t>(); }
    std::span<std::int32_t> refs() { return numbers.view<std::int32_t>(); }

    std::size_t rows() const;
    Value value(std::size_t row) const;
    // String rows without a copy ("" for other storages).
    std::string_view text(std::size_t row) const;
    // Rows [from, to) of a String column, as text() gives them, into out[0 ...] (out holds
    // to - from views); returns how many were written (rows past rows() are not). For walks over
    // a whole column.
    std::size_t texts(std::size_t from, std::size_t to, std::string_view* out) const;
};

struct PropertyTable {
    // The class name of a binary model's INST chunk: static text, or bytes its Asset keeps
    // (Asset::storage), as PropertyColumn::name.
    std::string_view name;
    std::vector<PropertyColumn> columns;
    const PropertyColumn* column(std::string_view name) const;  // first column of that name
};

// Distinct strings stored once each and named by their index (an asset's node kinds: a place of
// 100 000 parts has a few dozen classes). Index 0 is the empty string.
class StringTable {
public:
    // The index of `s`, added when it is new.
    std::uint32_t intern(std::string_view s);
    // The index of `s` when it is stored, else 0 (as for ""): a lookup that adds nothing.
    std::uint32_t find(std::string_view s) const;
    // "" for an index out of range.
    std::string_view operator[](std::uint32_t i) const {
        return i < strings_.size() ? std::string_view(strings_[i]) : std::string_view();
    }
    std::size_t size() const { return strings_.size(); }

private:
    void grow();
    std::vector<std::string> strings_{std::string()};
    // Open addressing: strings_ indices (0 for a free slot; "" is never stored here), a power of
    // two in size and at most half full. No node per string, unlike a hash map (a place has a
    // few hundred classes, each interned once per decode).
    std::vector<std::uint32_t> slots_;
    std::uint32_t last_ = 0;  // the string interned last
};

// What a node shows, for the nodes of a mesh file's structure: indices into the Asset's meshes,
// skeletons, FACS rigs and animations (-1 for none).
struct NodeLinks {
    int mesh = -1;  // Asset::meshes index shown by this node
    int skeleton = -1;
    int bone = -1;  // bone index within `skeleton`
    int facs = -1;
    int animation = -1;
    int lod = -1;  // LOD index within `mesh`
    friend bool operator==(const NodeLinks&, const NodeLinks&) = default;
};

// A node of the tree: plain data of 56 bytes, since a large place holds hundreds of thousands of
// them (the array is written in one pass and freed in one call). What varies in size, or is
// rare, is kept by the Asset beside the array and read through it: the name (Asset::name), the
// class or kind (Asset::kind), the children (Asset::children), the node's own properties
// (Asset::ownProperties; Asset::properties adds its column values) and what it shows
// (Asset::links). A default Node is a root with no name, no kind, no children, no properties
// and no links.
struct Node {
    std::uint64_t offset = 0;  // bytes that describe this node (0/0 when none)
    std::uint64_t length = 0;
    int parent = -1;
    int table = -1;         // Asset::propertyTables index, -1 for none
    std::uint32_t row = 0;  // the node's row in that table
    // Set through the Asset (addNode, setName, setKind, addChild, addProperty, linksOf):
    std::uint32_t nameAt = 0;  // the name: Asset::nodeText bytes [nameAt, nameAt + nameSize)
    std::uint32_t nameSize = 0;
    std::uint32_t kindId = 0;  // Asset::kinds index: the class name for instances; "header",
                               // "mesh", "LOD", "bone" ... otherwise
    int childList = -1;        // Asset::childLists index, -1 when it has no children
    int propertyList = -1;     // Asset::propertyLists index, -1 when it has no own properties
    int linkList = -1;         // Asset::nodeLinks index, -1 when it shows nothing
    bool service = false;
    // Decoded from a property value rather than the file's own tree: the original parts a CSG
    // union keeps in ChildData / ChildData2, shown under the union. Not drawn, not exported.
    bool embedded = false;
};
static_assert(sizeof(Node) == 56);

// ---------------------------------------------------------------------------------------------

struct Asset {
    std::string format;      // stable id: "roblox-mesh", "roblox-model", "secondlife-mesh" ...
    std::string formatName;  // human name: "Roblox FileMesh"
    std::string version;     // "4.01", "0", "mi08" ...
    std::uint64_t fileSize = 0;

    std::vector<Node> nodes;  // tree; roots have parent -1
    // What nodes refer to (see Node): read them through name(), kind(), children() and
    // ownProperties().
    std::string nodeText;                              // node names, back to back
    StringTable kinds;                                 // node kinds
    std::vector<std::vector<int>> childLists;          // children, in order
    std::vector<std::vector<Property>> propertyLists;  // nodes' own properties
    std::vector<NodeLinks> nodeLinks;                  // what nodes show
    std::vector<PropertyTable> propertyTables;         // column storage of node properties
    // SharedString contents, each stored once; SharedStringRef values index it.
    std::vector<std::string> sharedStrings;
    std::vector<Mesh> meshes;
    std::vector<Skeleton> skeletons;
    std::vector<FacsRig> facs;
    std::vector<Animation> animations;
    std::vector<Diagnostic> diagnostics;
    ByteMap byteMap;
    // Blocks that columns' bytes refer to (ColumnBytes views), kept as long as the Asset (or a
    // copy of it).
    std::vector<std::shared_ptr<const void>> storage;

    // Adds a node under `parent` (or as a root) and returns its index.
    int addNode(std::string_view name, std::string_view kind, int parent = -1);
    std::vector<int> roots() const;

    // A node's name, kind, children and own properties ("" and empty for a node out of range).
    std::string_view name(int node) const;
    std::string_view kind(int node) const;
    std::string_view nameOrKind(int node) const;  // the name, or the kind when it has none
    std::span<const int> children(int node) const;
    std::span<const Property> ownProperties(int node) const;
    // The first of the node's own properties of that name (column values are not searched:
    // property() searches both), or null.
    const Property* ownProperty(int node, std::string_view name) const;
    // What the node shows (all -1 when nothing).
    const NodeLinks& links(int node) const;

    // Editing. setName appends the name's bytes to nodeText. addChild lists `child` last among
    // `parent`'s children (it does not set child's parent). childList(), propertyList() and
    // linksOf() give a node's list or links to edit, made for it when it has none.
    void setName(int node, std::string_view name);
    void setKind(int node, std::string_view kind);
    void addChild(int parent, int child);
    void addProperty(int node, Property property);
    std::vector<int>& childList(int node);
    std::vector<Property>& propertyList(int node);
    NodeLinks& linksOf(int node);
    // Every property of node `node`, materialized in order: its own list, then its table's
    // columns (name, type, value, offset, length).
    std::vector<Property> properties(int node) const;
    std::size_t propertyCount(int node) const;
    // The first property of that name, or nullopt.
    std::optional<Property> property(int node, std::string_view name) const;
    // The value of that property alone, as property() finds it (no name or type strings made:
    // for code that reads a few values of many nodes, such as a rig's joints).
    std::optional<Value> propertyValue(int node, std::string_view name) const;
    // Shared string `index` without a copy ("" out of range).
    std::string_view sharedString(std::uint32_t index) const {
        return index < sharedStrings.size() ? std::string_view(sharedStrings[index])
                                            : std::string_view();
    }
    // The bytes of a text value without a copy: a std::string's, or a SharedStringRef's shared
    // string; "" for any other value.
    std::string_view textOf(const Value& value) const;
    std::size_t warningCount() const;
    Bounds bounds() const;  // union of every mesh's bounds
};

// A physics shape the file stores beside the meshes it shows (Second Life's physics_mesh and
// physics_convex blocks): not part of the model's picture. The viewer draws it only with View ›
// Physics Hulls, exports leave it out unless asked, thumbnails never draw it.
bool isPhysicsMesh(const Asset& asset, const Mesh& mesh);

}  // namespace meshscope
