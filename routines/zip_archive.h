// The ZIP container of .npz files (PKWARE's APPNOTE): entries stored or
// deflated (zlib), with ZIP64 records once a size, an offset or the number
// of entries passes what the classic 16/32-bit fields hold. No encryption,
// no multi-disk archives: NumPy writes neither.
#pragma once
#include <cstdint>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace kumo {

// One entry of the central directory.
struct ZipEntry {
  std::string name;
  uint32_t crc = 0;
  uint64_t compressed_size = 0, size = 0;
  uint64_t local_header_offset = 0;  // where the entry's local header starts
  uint16_t method = 0;               // 0 stored, 8 deflated
};

// Writes entries one after another to a stream, then the central directory
// in finish() (or the destructor, which swallows errors: call finish()).
class ZipWriter {
 public:
  explicit ZipWriter(std::ostream& out) : out_(out) {}
  ~ZipWriter();
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;

  // One entry whose contents are the concatenation of `parts` (e.g. an .npy
  // header and the array's bytes, without joining them in memory first).
  void add(const std::string& name, const std::vector<std::pair<const char*, size_t>>& parts, bool deflate);
  void finish();

 private:
  std::ostream& out_;
  std::vector<ZipEntry> entries_;
  uint64_t position_ = 0;
  bool finished_ = false;
  void write(const void* data, size_t n);
};

// Reads the central directory of an archive on a seekable stream; entries
// are then read on demand, their CRC-32 checked.
class ZipReader {
 public:
  using Entry = ZipEntry;
  // `what` names the archive (its path) in error messages.
  ZipReader(std::unique_ptr<std::istream> in, std::string what);

  const std::vector<Entry>& entries() const { return entries_; }
  const Entry* find(const std::string& name) const;
  // The uncompressed contents of `entry` into `dst` (entry.size bytes).
  void read(const Entry& entry, char* dst);

 private:
  std::unique_ptr<std::istream> in_;
  std::string what_;
  std::vector<Entry> entries_;
};

// True when `bytes` (a file's first bytes) start a ZIP archive: a local
// header, or the end record of an empty archive.
bool is_zip_prefix(const char* bytes, size_t n);

}  // namespace kumo
