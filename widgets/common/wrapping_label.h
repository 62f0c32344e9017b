// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QHash>
#include <QLabel>

namespace crossroof::widgets {

/// A word-wrapped label that remembers its height for each width. Every time another label of its layout
/// changes (the readout's values, on each step of a slider's drag), Qt's layouts ask every wrapped label again
/// how tall it is at its width, and QLabel lays its text out anew to answer: for a panel of wrapped names that
/// was a sixth of a drag step. The answers hold until the text or the font changes.
class WrappingLabel : public QLabel
{
public:
    explicit WrappingLabel(const QString &text = {}, QWidget *parent = nullptr)
        : QLabel(text, parent)
    {
        setWordWrap(true);
    }

    int heightForWidth(int width) const override
    {
        if (text() != m_text || font() != m_font) {
            m_heights.clear();
            m_text = text();
            m_font = font();
        }
        if (const auto it = m_heights.constFind(width); it != m_heights.constEnd())
            return *it;
        if (m_heights.size() >= 64) // a window resized back and forth
            m_heights.clear();
        const int height = QLabel::heightForWidth(width);
        m_heights.insert(width, height);
        return height;
    }

private:
    mutable QString m_text;
    mutable QFont m_font;
    mutable QHash<int, int> m_heights;
};

} // namespace crossroof::widgets
