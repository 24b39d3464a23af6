// kumo._core.io: the C++ routines of routines/io.h for kumo._io, which adds
// NumPy's signatures, suffixes and the pickle cases. A `file` argument is a
// path (str) or a binary Python file object; paths are read and written
// without the GIL, file objects through a stream buffer that calls their
// read/write/seek methods.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <streambuf>
#include <string>

#include "bindings/convert.h"
#include "core/device.h"
#include "core/errors.h"
#include "routines/io.h"

namespace kumo {
namespace py_bind {

namespace {

// A std::streambuf over a Python binary file object. Reads ask the file for
// exactly what is wanted (no read-ahead), so the file's position after a
// load is just past the array, as with NumPy. Needs the GIL.
class PyFileBuf : public std::streambuf {
 public:
  explicit PyFileBuf(py::object file) : file_(std::move(file)) {}

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::streamsize done = 0;
    while (done < n) {
      // memoryview, not bytes: the file reads our memory without a copy.
      py::object written = file_.attr("write")(py::memoryview::from_memory(s + done, n - done));
      const std::streamsize w = written.is_none() ? n - done : py::cast<std::streamsize>(written);
      if (w <= 0) break;
      done += w;
    }
    return done;
  }
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
  }
  std::streamsize xsgetn(char* s, std::streamsize n) override {
    std::streamsize done = 0;
    if (gptr() < egptr() && n > 0) {  // the byte underflow() peeked at
      s[done++] = *gptr();
      gbump(1);
    }
    while (done < n) {
      py::object got = file_.attr("readinto")(py::memoryview::from_memory(s + done, n - done));
      const std::streamsize r = got.is_none() ? 0 : py::cast<std::streamsize>(got);
      if (r <= 0) break;
      done += r;
    }
    return done;
  }
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (xsgetn(&peek_, 1) != 1) return traits_type::eof();
    setg(&peek_, &peek_, &peek_ + 1);
    return traits_type::to_int_type(peek_);
  }
  pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode) override {
    // A peeked byte is not yet consumed: the file is one byte ahead of the stream.
    if (dir == std::ios_base::cur) off -= egptr() - gptr();
    setg(nullptr, nullptr, nullptr);
    const int whence = dir == std::ios_base::beg ? 0 : dir == std::ios_base::cur ? 1 : 2;
    return pos_type(py::cast<off_type>(file_.attr("seek")(off, whence)));
  }
  pos_type seekpos(pos_type pos, std::ios_base::openmode which) override {
    return seekoff(off_type(pos), std::ios_base::beg, which);
  }

 private:
  py::object file_;
  char peek_ = 0;
};

// An istream that owns its PyFileBuf (for an NpzFile that outlives the call).
class PyInputStream : public std::istream {
 public:
  explicit PyInputStream(py::object file) : std::istream(nullptr), buf_(std::move(file)) {
    rdbuf(&buf_);
    exceptions(std::ios::badbit);
  }

 private:
  PyFileBuf buf_;
};

bool is_path(const py::handle& file) { return py::isinstance<py::str>(file); }

// Runs `on_path(path)` without the GIL for a path, else `on_stream(stream)`
// over the file object.
template <class Path, class Stream>
auto with_file(const py::handle& file, Path on_path, Stream on_stream) {
  if (is_path(file)) {
    std::string path = py::cast<std::string>(file);
    py::gil_scoped_release release;
    return on_path(path);
  }
  PyFileBuf buf(py::reinterpret_borrow<py::object>(file));
  std::iostream stream(&buf);
  // An exception of the file object (a text-mode file, a closed file)
  // leaves the stream as itself rather than as a bare failure bit.
  stream.exceptions(std::ios::badbit);
  return on_stream(stream);
}

}  // namespace

void bind_io(py::module_& parent) {
  py::module_ m = parent.def_submodule("io", "numpy.save/load/savez and raw files in C++ (routines/io.h)");

  m.def(
      "npy_header_bytes",
      [](const std::string& descr, bool fortran_order, py::handle shape) {
        return py::bytes(npy_header_bytes(descr, fortran_order, to_shape(shape)));
      },
      py::arg("descr"), py::arg("fortran_order"), py::arg("shape"));
  m.def(
      "read_npy_header",
      [](py::object file, int64_t max_header_size) {
        NpyHeader h = with_file(
            file,
            [&](const std::string& path) -> NpyHeader {
              std::ifstream in(path, std::ios::binary);
              if (!in) throw OSError(errno, "read_npy_header('" + path + "'): " + std::strerror(errno));
              return read_npy_header(in, max_header_size);
            },
            [&](std::iostream& s) { return read_npy_header(s, max_header_size); });
        return py::make_tuple(h.descr, h.fortran_order, py::tuple(py::cast(h.shape.to_vector())),
                              py::make_tuple(h.major_version, h.minor_version), h.data_offset);
      },
      py::arg("file"), py::arg("max_header_size") = kNpyMaxHeaderSize);

  m.def(
      "save_npy",
      [](py::object file, py::object arr) {
        Array a = to_array_required(arr);
        with_file(
            file, [&](const std::string& path) { save_npy(path, a); }, [&](std::iostream& s) { save_npy(s, a); });
      },
      py::arg("file"), py::arg("arr"));
  m.def(
      "load_npy",
      [](py::object file, const std::string& mmap_mode, const std::string& device, int64_t max_header_size) {
        Device& d = get_device(device);
        return with_file(
            file,
            [&](const std::string& path) {
              return load_npy(path, mmap_mode_from_string(mmap_mode), d, max_header_size);
            },
            [&](std::iostream& s) {
              if (!mmap_mode.empty()) throw ValueError("mmap_mode needs a file name, not a file object");
              return load_npy(s, d, max_header_size);
            });
      },
      py::arg("file"), py::arg("mmap_mode") = "", py::arg("device") = "cpu",
      py::arg("max_header_size") = kNpyMaxHeaderSize);

  // Members are (name, array-like) or (name, bytes of a whole .npy file: a
  // pickled object array, which only Python can write).
  m.def(
      "savez",
      [](py::object file, const std::vector<std::pair<std::string, py::object>>& items, bool compress) {
        struct Member {
          std::string name;
          Array array;
          std::optional<std::string> npy;
        };
        std::vector<Member> members;
        for (const auto& [name, value] : items) {
          if (py::isinstance<py::bytes>(value))
            members.push_back({name, Array(), py::cast<std::string>(value)});
          else
            members.push_back({name, to_array_required(value), std::nullopt});
        }
        const auto write_all = [&](NpzWriter& npz) {
          for (const Member& m : members) {
            if (m.npy)
              npz.add_npy_bytes(m.name, *m.npy);
            else
              npz.add(m.name, m.array);
          }
          npz.close();
        };
        with_file(
            file,
            [&](const std::string& path) {
              NpzWriter npz(path, compress);
              write_all(npz);
            },
            [&](std::iostream& s) {
              NpzWriter npz(s, compress);
              write_all(npz);
            });
      },
      py::arg("file"), py::arg("arrays"), py::arg("compress") = false);

  py::class_<NpzFile>(m, "NpzFile")
      .def(py::init([](py::object file, int64_t max_header_size) {
             if (is_path(file)) return NpzFile(py::cast<std::string>(file), max_header_size);
             return NpzFile(std::make_unique<PyInputStream>(file),
                            "NpzFile(" + py::repr(file).cast<std::string>() + ")", max_header_size);
           }),
           py::arg("file"), py::arg("max_header_size") = kNpyMaxHeaderSize)
      .def("entry_names", &NpzFile::entry_names)
      .def("array_names", &NpzFile::array_names)
      .def("__contains__", &NpzFile::contains)
      .def(
          "array",
          [](NpzFile& f, const std::string& name, const std::string& device) {
            return f.array(name, get_device(device));
          },
          py::arg("name"), py::arg("device") = "cpu")
      .def("bytes", [](NpzFile& f, const std::string& entry) { return py::bytes(f.bytes(entry)); });

  m.def(
      "tofile",
      [](py::object file, const Array& a, const std::string& sep, const std::string& format) {
        with_file(
            file, [&](const std::string& path) { tofile(path, a, sep, format); },
            [&](std::iostream& s) { tofile(s, a, sep, format); });
      },
      py::arg("file"), py::arg("a"), py::arg("sep") = "", py::arg("format") = "%s");
  m.def(
      "fromfile",
      [](const std::string& path, py::object dtype, int64_t count, const std::string& sep, int64_t offset,
         const std::string& device) {
        Dtype dt = to_dtype_required(dtype);
        Device& d = get_device(device);
        py::gil_scoped_release release;
        return fromfile(path, dt, count, sep, offset, d);
      },
      py::arg("file"), py::arg("dtype"), py::arg("count") = -1, py::arg("sep") = "", py::arg("offset") = 0,
      py::arg("device") = "cpu");
  m.def(
      "frombuffer",
      [](py::buffer buffer, py::object dtype, int64_t count, int64_t offset, const std::string& device) {
        auto info = std::make_shared<py::buffer_info>(buffer.request());
        Dtype dt = to_dtype_required(dtype);
        Device& d = get_device(device);
        const auto nbytes = static_cast<size_t>(info->size * info->itemsize);
        // On the host the array uses the buffer's memory, as NumPy's does
        // (writes reach the buffer; a read-only buffer gives a read-only
        // array), and keeps the buffer exported while it lives.
        const bool contiguous = info->ndim <= 1 && (info->ndim == 0 || info->strides[0] == info->itemsize);
        if (&d == &host_device() && contiguous) {
          void* ptr = info->ptr;
          const bool writeable = !info->readonly;
          std::optional<Array> view = frombuffer_view(ptr, nbytes, dt, count, offset, writeable, [info]() mutable {
            if (!Py_IsInitialized()) return;  // at exit the buffer's owner is gone already
            py::gil_scoped_acquire gil;
            info.reset();
          });
          if (view) return *view;
        }
        py::gil_scoped_release release;
        return frombuffer(info->ptr, nbytes, dt, count, offset, d);
      },
      py::arg("buffer"), py::arg("dtype"), py::arg("count") = -1, py::arg("offset") = 0, py::arg("device") = "cpu");
  m.def(
      "fromstring",
      [](const std::string& text, py::object dtype, int64_t count, const std::string& sep, const std::string& device) {
        Dtype dt = to_dtype_required(dtype);
        Device& d = get_device(device);
        py::gil_scoped_release release;
        return fromstring(text, dt, count, sep, d);
      },
      py::arg("string"), py::arg("dtype"), py::arg("count") = -1, py::arg("sep") = "", py::arg("device") = "cpu");
}

}  // namespace py_bind
}  // namespace kumo
