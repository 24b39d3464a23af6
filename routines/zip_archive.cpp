#include "routines/zip_archive.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <optional>

#include "core/errors.h"

namespace kumo {

namespace {

constexpr uint32_t kLocalHeaderSignature = 0x04034b50;
constexpr uint32_t kCentralHeaderSignature = 0x02014b50;
constexpr uint32_t kEndSignature = 0x06054b50;
constexpr uint32_t kZip64EndSignature = 0x06064b50;
constexpr uint32_t kZip64LocatorSignature = 0x07064b50;
constexpr uint16_t kZip64ExtraId = 0x0001;
constexpr uint32_t kMax32 = 0xFFFFFFFFu;
constexpr uint16_t kMax16 = 0xFFFFu;
constexpr uint16_t kVersion = 20;       // deflate, directories
constexpr uint16_t kVersionZip64 = 45;  // ZIP64 records
constexpr uint16_t kMethodStored = 0, kMethodDeflated = 8;
constexpr size_t kEndRecordSize = 22;
constexpr size_t kChunk = size_t{1} << 20;

// Little-endian field writers/readers: ZIP fields are little-endian whatever the host.
void put(std::string& s, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
uint64_t get(const char* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

uint32_t crc_update(uint32_t crc, const char* data, size_t n) {
  if (n == 0) return crc;  // zlib returns the initial value for a null buffer, which would reset `crc`
  return static_cast<uint32_t>(crc32_z(crc, reinterpret_cast<const Bytef*>(data), n));
}

// MS-DOS time and date of now (local time, as zip tools write it).
std::pair<uint16_t, uint16_t> dos_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  int year = std::max(tm.tm_year + 1900, 1980);
  auto time = static_cast<uint16_t>((tm.tm_hour << 11) | (tm.tm_min << 5) | (tm.tm_sec / 2));
  auto date = static_cast<uint16_t>(((year - 1980) << 9) | ((tm.tm_mon + 1) << 5) | tm.tm_mday);
  return {time, date};
}

// Bit 11: the name is UTF-8 (set only when it is not plain ASCII).
uint16_t name_flags(const std::string& name) {
  bool ascii = std::all_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  return ascii ? 0 : 0x800;
}

class Deflater {
 public:
  Deflater() {
    // Raw deflate (no zlib wrapper) at zlib's default level: what ZIP tools and
    // Python's zipfile write, so the compressed bytes match theirs.
    if (deflateInit2(&z_, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
      throw RuntimeError("zlib deflateInit2 failed");
  }
  ~Deflater() { deflateEnd(&z_); }
  Deflater(const Deflater&) = delete;
  Deflater& operator=(const Deflater&) = delete;

  void feed(const char* data, size_t n, bool last, std::string& out) {
    // avail_in is 32-bit: feed large inputs in slices.
    do {
      size_t slice = std::min<size_t>(n, kMax32 / 2);
      z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
      z_.avail_in = static_cast<uInt>(slice);
      data += slice;
      n -= slice;
      int flush = (last && n == 0) ? Z_FINISH : Z_NO_FLUSH;
      int rc;
      do {
        size_t old = out.size();
        out.resize(old + kChunk);
        z_.next_out = reinterpret_cast<Bytef*>(&out[old]);
        z_.avail_out = static_cast<uInt>(kChunk);
        rc = deflate(&z_, flush);
        out.resize(old + kChunk - z_.avail_out);
        if (rc == Z_STREAM_ERROR) throw RuntimeError("zlib deflate failed");
      } while (z_.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    } while (n > 0);
  }

 private:
  z_stream z_{};
};

class Inflater {
 public:
  Inflater() {
    if (inflateInit2(&z_, -MAX_WBITS) != Z_OK) throw RuntimeError("zlib inflateInit2 failed");
  }
  ~Inflater() { inflateEnd(&z_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  z_stream& stream() { return z_; }

 private:
  z_stream z_{};
};

}  // namespace

bool is_zip_prefix(const char* bytes, size_t n) {
  if (n < 4) return false;
  uint32_t sig = static_cast<uint32_t>(get(bytes, 4));
  return sig == kLocalHeaderSignature || sig == kEndSignature;
}

// ---- writing ----

ZipWriter::~ZipWriter() {
  if (finished_) return;
  try {
    finish();
  } catch (...) {  // NOLINT: a destructor must not throw; finish() reports errors to callers that call it
  }
}

void ZipWriter::write(const void* data, size_t n) {
  out_.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  if (!out_) throw OSError(EIO, "ZipWriter: writing " + std::to_string(n) + " bytes failed");
  position_ += n;
}

void ZipWriter::add(const std::string& name, const std::vector<std::pair<const char*, size_t>>& parts, bool deflate) {
  if (finished_) throw ValueError("ZipWriter::add('" + name + "'): the archive is already finished");
  ZipEntry e;
  e.name = name;
  e.local_header_offset = position_;
  e.method = deflate ? kMethodDeflated : kMethodStored;
  std::string compressed;
  std::optional<Deflater> deflater;
  if (deflate) deflater.emplace();
  for (size_t i = 0; i < parts.size(); ++i) {
    e.crc = crc_update(e.crc, parts[i].first, parts[i].second);
    e.size += parts[i].second;
    if (deflater) deflater->feed(parts[i].first, parts[i].second, i + 1 == parts.size(), compressed);
  }
  if (deflater && parts.empty()) deflater->feed(nullptr, 0, true, compressed);
  e.compressed_size = deflate ? compressed.size() : e.size;

  const bool zip64 = e.size >= kMax32 || e.compressed_size >= kMax32;
  auto [time, date] = dos_now();
  std::string h;
  put(h, kLocalHeaderSignature, 4);
  put(h, zip64 ? kVersionZip64 : kVersion, 2);
  put(h, name_flags(name), 2);
  put(h, e.method, 2);
  put(h, time, 2);
  put(h, date, 2);
  put(h, e.crc, 4);
  put(h, zip64 ? kMax32 : e.compressed_size, 4);
  put(h, zip64 ? kMax32 : e.size, 4);
  put(h, name.size(), 2);
  put(h, zip64 ? 20 : 0, 2);
  h += name;
  if (zip64) {
    put(h, kZip64ExtraId, 2);
    put(h, 16, 2);
    put(h, e.size, 8);
    put(h, e.compressed_size, 8);
  }
  write(h.data(), h.size());
  if (deflate) {
    write(compressed.data(), compressed.size());
  } else {
    for (const auto& [data, n] : parts) write(data, n);
  }
  entries_.push_back(std::move(e));
}

void ZipWriter::finish() {
  if (finished_) return;
  finished_ = true;
  const uint64_t cd_offset = position_;
  auto [time, date] = dos_now();
  for (const ZipEntry& e : entries_) {
    // ZIP64 extra: only the fields whose classic slot overflows, in this order.
    std::string extra;
    if (e.size >= kMax32) put(extra, e.size, 8);
    if (e.compressed_size >= kMax32) put(extra, e.compressed_size, 8);
    if (e.local_header_offset >= kMax32) put(extra, e.local_header_offset, 8);
    std::string h;
    const uint16_t version = extra.empty() ? kVersion : kVersionZip64;
    put(h, kCentralHeaderSignature, 4);
    put(h, (3u << 8) | version, 2);  // made by: UNIX, so the permission bits below are read
    put(h, version, 2);
    put(h, name_flags(e.name), 2);
    put(h, e.method, 2);
    put(h, time, 2);
    put(h, date, 2);
    put(h, e.crc, 4);
    put(h, std::min<uint64_t>(e.compressed_size, kMax32), 4);
    put(h, std::min<uint64_t>(e.size, kMax32), 4);
    put(h, e.name.size(), 2);
    put(h, extra.empty() ? 0 : extra.size() + 4, 2);
    put(h, 0, 2);                        // comment
    put(h, 0, 2);                        // disk
    put(h, 0, 2);                        // internal attributes
    put(h, uint64_t{0100644} << 16, 4);  // regular file, rw-r--r--
    put(h, std::min<uint64_t>(e.local_header_offset, kMax32), 4);
    h += e.name;
    if (!extra.empty()) {
      put(h, kZip64ExtraId, 2);
      put(h, extra.size(), 2);
      h += extra;
    }
    write(h.data(), h.size());
  }
  const uint64_t cd_size = position_ - cd_offset;
  const uint64_t count = entries_.size();
  std::string t;
  if (count >= kMax16 || cd_size >= kMax32 || cd_offset >= kMax32) {
    const uint64_t zip64_end = position_;
    put(t, kZip64EndSignature, 4);
    put(t, 44, 8);  // size of the rest of this record
    put(t, kVersionZip64, 2);
    put(t, kVersionZip64, 2);
    put(t, 0, 4);
    put(t, 0, 4);
    put(t, count, 8);
    put(t, count, 8);
    put(t, cd_size, 8);
    put(t, cd_offset, 8);
    put(t, kZip64LocatorSignature, 4);
    put(t, 0, 4);
    put(t, zip64_end, 8);
    put(t, 1, 4);
  }
  put(t, kEndSignature, 4);
  put(t, 0, 2);
  put(t, 0, 2);
  put(t, std::min<uint64_t>(count, kMax16), 2);
  put(t, std::min<uint64_t>(count, kMax16), 2);
  put(t, std::min<uint64_t>(cd_size, kMax32), 4);
  put(t, std::min<uint64_t>(cd_offset, kMax32), 4);
  put(t, 0, 2);
  write(t.data(), t.size());
  out_.flush();
  if (!out_) throw OSError(EIO, "ZipWriter::finish: flushing the archive failed");
}

// ---- reading ----

namespace {

void read_exact(std::istream& in, char* dst, uint64_t n, const std::string& what) {
  in.read(dst, static_cast<std::streamsize>(n));
  if (static_cast<uint64_t>(in.gcount()) != n)
    throw ValueError(what + ": truncated ZIP archive (wanted " + std::to_string(n) + " bytes, got " +
                     std::to_string(in.gcount()) + ")");
}

void seek(std::istream& in, uint64_t pos, const std::string& what) {
  in.clear();
  in.seekg(static_cast<std::streamoff>(pos));
  if (!in) throw ValueError(what + ": cannot seek to offset " + std::to_string(pos) + " of the ZIP archive");
}

}  // namespace

ZipReader::ZipReader(std::unique_ptr<std::istream> in, std::string what) : in_(std::move(in)), what_(std::move(what)) {
  std::istream& s = *in_;
  s.seekg(0, std::ios::end);
  const auto end = static_cast<uint64_t>(s.tellg());
  if (!s || end < kEndRecordSize) throw ValueError(what_ + ": File is not a zip file");
  // The end record sits in the last 22 bytes plus an archive comment of up to 64 KiB.
  const uint64_t tail_size = std::min<uint64_t>(end, kEndRecordSize + kMax16);
  std::string tail(tail_size, '\0');
  seek(s, end - tail_size, what_);
  read_exact(s, tail.data(), tail_size, what_);
  int64_t at = -1;
  for (int64_t i = static_cast<int64_t>(tail_size - kEndRecordSize); i >= 0; --i) {
    if (get(&tail[i], 4) == kEndSignature) {
      at = i;
      break;
    }
  }
  if (at < 0) throw ValueError(what_ + ": File is not a zip file");
  const char* eocd = &tail[at];
  uint64_t count = get(eocd + 10, 2), cd_size = get(eocd + 12, 4), cd_offset = get(eocd + 16, 4);
  const uint64_t eocd_pos = end - tail_size + at;
  if (eocd_pos >= 20) {
    char locator[20];
    seek(s, eocd_pos - 20, what_);
    read_exact(s, locator, 20, what_);
    if (get(locator, 4) == kZip64LocatorSignature) {
      char z[56];
      seek(s, get(locator + 8, 8), what_);
      read_exact(s, z, 56, what_);
      if (get(z, 4) != kZip64EndSignature) throw ValueError(what_ + ": corrupt ZIP64 end of central directory");
      count = get(z + 32, 8);
      cd_size = get(z + 40, 8);
      cd_offset = get(z + 48, 8);
    }
  }
  if (cd_offset + cd_size > end) throw ValueError(what_ + ": the central directory lies beyond the end of the file");
  std::string cd(cd_size, '\0');
  seek(s, cd_offset, what_);
  read_exact(s, cd.data(), cd_size, what_);
  size_t p = 0;
  for (uint64_t i = 0; i < count; ++i) {
    if (p + 46 > cd.size() || get(&cd[p], 4) != kCentralHeaderSignature)
      throw ValueError(what_ + ": corrupt ZIP central directory (entry " + std::to_string(i) + ")");
    const char* h = &cd[p];
    Entry e;
    const uint16_t flags = static_cast<uint16_t>(get(h + 8, 2));
    if (flags & 0x1) throw ValueError(what_ + ": encrypted ZIP entries are not supported");
    e.method = static_cast<uint16_t>(get(h + 10, 2));
    e.crc = static_cast<uint32_t>(get(h + 16, 4));
    e.compressed_size = get(h + 20, 4);
    e.size = get(h + 24, 4);
    const size_t name_len = get(h + 28, 2), extra_len = get(h + 30, 2), comment_len = get(h + 32, 2);
    e.local_header_offset = get(h + 42, 4);
    if (p + 46 + name_len + extra_len + comment_len > cd.size())
      throw ValueError(what_ + ": corrupt ZIP central directory (entry " + std::to_string(i) + ")");
    e.name.assign(h + 46, name_len);
    // ZIP64 extra: 64-bit values for exactly the classic fields that hold 0xFFFFFFFF.
    for (size_t q = 0; q + 4 <= extra_len;) {
      const char* x = h + 46 + name_len + q;
      const size_t len = get(x + 2, 2);
      if (get(x, 2) == kZip64ExtraId) {
        const char* v = x + 4;
        const char* v_end = v + std::min(len, extra_len - q - 4);
        auto take = [&](uint64_t& field) {
          if (field != kMax32) return;
          if (v + 8 > v_end) throw ValueError(what_ + ": corrupt ZIP64 extra field of '" + e.name + "'");
          field = get(v, 8);
          v += 8;
        };
        take(e.size);
        take(e.compressed_size);
        take(e.local_header_offset);
      }
      q += 4 + len;
    }
    entries_.push_back(std::move(e));
    p += 46 + name_len + extra_len + comment_len;
  }
}

const ZipReader::Entry* ZipReader::find(const std::string& name) const {
  for (const Entry& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

void ZipReader::read(const Entry& entry, char* dst) {
  const std::string where = what_ + "['" + entry.name + "']";
  std::istream& s = *in_;
  char h[30];
  seek(s, entry.local_header_offset, where);
  read_exact(s, h, 30, where);
  if (get(h, 4) != kLocalHeaderSignature) throw ValueError(where + ": bad local file header in the ZIP archive");
  seek(s, entry.local_header_offset + 30 + get(h + 26, 2) + get(h + 28, 2), where);
  if (entry.method == kMethodStored) {
    if (entry.compressed_size != entry.size) throw ValueError(where + ": stored entry with two different sizes");
    read_exact(s, dst, entry.size, where);
  } else if (entry.method == kMethodDeflated) {
    Inflater inflater;
    z_stream& z = inflater.stream();
    std::string buffer(std::min<uint64_t>(entry.compressed_size, kChunk), '\0');
    uint64_t left_in = entry.compressed_size, produced = 0;
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
      if (z.avail_in == 0) {
        if (left_in == 0) throw ValueError(where + ": truncated deflate stream");
        const uint64_t n = std::min<uint64_t>(left_in, buffer.size());
        read_exact(s, buffer.data(), n, where);
        left_in -= n;
        z.next_in = reinterpret_cast<Bytef*>(buffer.data());
        z.avail_in = static_cast<uInt>(n);
      }
      const uint64_t room = std::min<uint64_t>(entry.size - produced, kMax32 / 2);
      z.next_out = reinterpret_cast<Bytef*>(dst + produced);
      z.avail_out = static_cast<uInt>(room);
      rc = inflate(&z, Z_NO_FLUSH);
      produced += room - z.avail_out;
      if (rc != Z_OK && rc != Z_STREAM_END && !(rc == Z_BUF_ERROR && room > 0))
        throw ValueError(where + ": corrupt deflate stream (zlib: " + (z.msg ? z.msg : "error") + ")");
      if (rc == Z_BUF_ERROR && room == 0) throw ValueError(where + ": deflate stream longer than its stated size");
    }
    if (produced != entry.size) throw ValueError(where + ": inflated size differs from the stated size");
  } else {
    throw ValueError(where + ": ZIP compression method " + std::to_string(entry.method) +
                     " is not supported (only stored and deflated)");
  }
  if (crc_update(0, dst, entry.size) != entry.crc) throw ValueError(where + ": Bad CRC-32 in the ZIP archive");
}

}  // namespace kumo
