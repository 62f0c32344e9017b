// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/native_path.h"

namespace crossroof::widgets {

namespace {

constexpr char16_t kEscapeBase = 0xDC00; ///< a byte B that is not UTF-8 becomes U+DC00 + B (B >= 0x80)

/// The length of the valid UTF-8 sequence at S[I] and its code point; 0 when there is none.
std::size_t utf8Sequence(std::string_view s, std::size_t i, char32_t &code)
{
    const auto byte = [&s](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    char32_t min = 0;
    if (lead < 0x80) {
        code = lead;
        return 1;
    } else if ((lead & 0xE0) == 0xC0) {
        length = 2;
        code = lead & 0x1F;
        min = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3;
        code = lead & 0x0F;
        min = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4;
        code = lead & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (i + length > s.size())
        return 0;
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80)
            return 0;
        code = (code << 6) | (byte(i + k) & 0x3F);
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
    if (code < min || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF)
        return 0;
    return length;
}

void appendUtf8(std::string &out, char32_t code)
{
    if (code < 0x80) {
        out += char(code);
    } else if (code < 0x800) {
        out += char(0xC0 | (code >> 6));
        out += char(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        out += char(0xE0 | (code >> 12));
        out += char(0x80 | ((code >> 6) & 0x3F));
        out += char(0x80 | (code & 0x3F));
    } else {
        out += char(0xF0 | (code >> 18));
        out += char(0x80 | ((code >> 12) & 0x3F));
        out += char(0x80 | ((code >> 6) & 0x3F));
        out += char(0x80 | (code & 0x3F));
    }
}

} // namespace

QString pathFromNative(std::string_view native)
{
    QString out;
    out.reserve(qsizetype(native.size()));
    std::size_t i = 0;
    while (i < native.size()) {
        char32_t code = 0;
        const std::size_t length = utf8Sequence(native, i, code);
        if (length == 0) {
            out += QChar(char16_t(kEscapeBase + static_cast<unsigned char>(native[i])));
            ++i;
            continue;
        }
        if (code >= 0x10000) {
            out += QChar(QChar::highSurrogate(code));
            out += QChar(QChar::lowSurrogate(code));
        } else {
            out += QChar(char16_t(code));
        }
        i += length;
    }
    return out;
}

std::string nativePath(const QString &path)
{
    std::string out;
    out.reserve(std::size_t(path.size()));
    for (qsizetype i = 0; i < path.size(); ++i) {
        const char16_t unit = path[i].unicode();
        if (QChar::isHighSurrogate(unit) && i + 1 < path.size() && QChar::isLowSurrogate(path[i + 1].unicode())) {
            appendUtf8(out, QChar::surrogateToUcs4(unit, path[i + 1].unicode()));
            ++i;
        } else if (unit >= kEscapeBase + 0x80 && unit <= kEscapeBase + 0xFF) {
            out += char(unit - kEscapeBase); // a byte pathFromNative() kept
        } else if (QChar::isSurrogate(unit)) {
            appendUtf8(out, 0xFFFD); // a lone surrogate no file name can hold
        } else {
            appendUtf8(out, unit);
        }
    }
    return out;
}

QString displayedPath(QString path)
{
    for (qsizetype i = 0; i < path.size(); ++i) {
        if (path[i].isHighSurrogate() && i + 1 < path.size() && path[i + 1].isLowSurrogate())
            ++i; // a character past U+FFFF, whole
        else if (path[i].isSurrogate())
            path[i] = QChar::ReplacementCharacter;
    }
    return path;
}

} // namespace crossroof::widgets
