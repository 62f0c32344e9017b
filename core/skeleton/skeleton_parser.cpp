// SPDX-License-Identifier: GPL-3.0-or-later
// The skeleton language: a tokenizer and a recursive-descent parser whose errors name line and column.
#include "core/skeleton/skeleton.h"

#include "core/support/error.h"
#include "core/support/numbers.h"
#include "core/support/quote.h"

#include <map>
#include <optional>

namespace crossroof::core {

namespace {

enum class Tok { Ident, Int, Colon, Comma, Equal, LParen, RParen, LBrace, RBrace, Semicolon, Newline, End };

struct Token
{
    Tok type = Tok::End;
    std::string text;
    int line = 1;
    int column = 1;
};

bool identStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool identChar(char c)
{
    return identStart(c) || (c >= '0' && c <= '9');
}

std::string describe(const Token &t)
{
    switch (t.type) {
    case Tok::Newline:
        return "the end of the line";
    case Tok::End:
        return "the end of the file";
    default:
        return "'" + quoteForMessage(t.text) + "'";
    }
}

class Parser
{
public:
    Parser(std::string_view text, std::string label)
        : m_text(text)
        , m_label(std::move(label))
    {
        advance();
    }

    Skeleton parse();

private:
    [[noreturn]] void fail(int line, int column, const std::string &what) const
    {
        throw InputError(m_label + ": line " + std::to_string(line) + ", column " + std::to_string(column) + ": "
                         + what);
    }
    [[noreturn]] void expected(const std::string &what) const
    {
        fail(m_tok.line, m_tok.column, "expected " + what + ", got " + describe(m_tok));
    }

    void advance();
    bool accept(Tok type)
    {
        if (m_tok.type != type)
            return false;
        advance();
        return true;
    }
    Token expect(Tok type, const std::string &what)
    {
        if (m_tok.type != type)
            expected(what);
        Token t = m_tok;
        advance();
        return t;
    }
    bool atKeyword(std::string_view word) const { return m_tok.type == Tok::Ident && m_tok.text == word; }
    void skipNewlines()
    {
        while (m_tok.type == Tok::Newline || m_tok.type == Tok::Semicolon)
            advance();
    }
    void endOfItem()
    {
        if (m_tok.type == Tok::RBrace || m_tok.type == Tok::End)
            return;
        if (m_tok.type != Tok::Newline && m_tok.type != Tok::Semicolon)
            expected("the end of the line");
        skipNewlines();
    }

    long long value(const std::string &what);
    void block(std::size_t depth);
    void loop(std::size_t depth);
    void statement(StatementKind kind);
    void definition();

    std::string_view m_text;
    std::string m_label;
    std::size_t m_pos = 0;
    int m_line = 1;
    int m_column = 1;
    Token m_tok;
    std::map<std::string, long long, std::less<>> m_vars;
    std::map<std::string, int, std::less<>> m_loopVars;
    Skeleton m_skel;
};

void Parser::advance()
{
    // Blanks and comments; a newline is a token (it ends a statement).
    while (m_pos < m_text.size()) {
        const char c = m_text[m_pos];
        if (c == ' ' || c == '\t' || c == '\r') {
            ++m_pos;
            ++m_column;
        } else if (c == '/' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '/') {
            while (m_pos < m_text.size() && m_text[m_pos] != '\n')
                ++m_pos;
        } else {
            break;
        }
    }
    m_tok = Token{Tok::End, {}, m_line, m_column};
    if (m_pos >= m_text.size())
        return;
    const char c = m_text[m_pos];
    const std::size_t start = m_pos;
    if (c == '\n') {
        m_tok = Token{Tok::Newline, std::string(1, '\n'), m_line, m_column};
        ++m_pos;
        ++m_line;
        m_column = 1;
        return;
    }
    if (identStart(c)) {
        while (m_pos < m_text.size() && identChar(m_text[m_pos]))
            ++m_pos;
        m_tok.type = Tok::Ident;
    } else if ((c >= '0' && c <= '9') || c == '-') {
        ++m_pos;
        while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9')
            ++m_pos;
        if (m_pos - start == 1 && c == '-')
            fail(m_line, m_column, "expected a digit after '-'");
        if (m_pos < m_text.size() && identChar(m_text[m_pos]))
            fail(m_line, m_column, "a number must be followed by a blank or a punctuation mark");
        m_tok.type = Tok::Int;
    } else {
        static constexpr std::string_view kPunct = ":,=(){};";
        static constexpr Tok kTypes[] = {Tok::Colon,  Tok::Comma,  Tok::Equal,  Tok::LParen,
                                         Tok::RParen, Tok::LBrace, Tok::RBrace, Tok::Semicolon};
        const auto at = kPunct.find(c);
        if (at == std::string_view::npos) {
            const bool printable = c >= 0x20 && c < 0x7f;
            fail(m_line, m_column,
                 printable ? "unexpected character '" + std::string(1, c) + "'"
                           : "unexpected byte " + std::to_string(int(static_cast<unsigned char>(c)))
                                     + " (a skeleton is plain ASCII text)");
        }
        ++m_pos;
        m_tok.type = kTypes[at];
    }
    m_tok.text = std::string(m_text.substr(start, m_pos - start));
    m_column += int(m_pos - start);
}

long long Parser::value(const std::string &what)
{
    const Token t = m_tok;
    if (t.type == Tok::Int) {
        advance();
        const auto v = parseInteger<long long>(t.text);
        if (!v || *v > kMaxSkeletonCount || *v < -kMaxSkeletonCount)
            fail(t.line, t.column,
                 what + " " + quoteForMessage(t.text) + " is too large (at most " + kMaxSkeletonCountText + ")");
        return *v;
    }
    if (t.type != Tok::Ident)
        expected(what + " (a whole number or a :variable)");
    advance();
    if (m_loopVars.count(t.text))
        fail(t.line, t.column,
             "the loop variable '" + quoteForMessage(t.text) + "' cannot be a bound: the nest must be rectangular");
    const auto it = m_vars.find(t.text);
    if (it == m_vars.end())
        fail(t.line, t.column,
             "unknown variable '" + quoteForMessage(t.text) + "' (define it first with ':" + quoteForMessage(t.text)
                     + " = VALUE')");
    return it->second;
}

void Parser::definition()
{
    const Token name = expect(Tok::Ident, "a variable name after ':'");
    expect(Tok::Equal, "'=' after ':" + quoteForMessage(name.text) + "'");
    m_vars[name.text] = value("the value of ':" + quoteForMessage(name.text) + "'");
    endOfItem();
}

void Parser::statement(StatementKind kind)
{
    if (m_skel.body.size() >= kMaxSkeletonStatements)
        fail(m_tok.line, m_tok.column,
             "too many statements (at most " + std::to_string(kMaxSkeletonStatements) + ")");
    SkeletonStatement s;
    s.kind = kind;
    s.line = m_tok.line;
    s.column = m_tok.column;
    const std::string keyword(statementKindName(kind));
    advance();
    const Token target = expect(Tok::Ident, "a variable name after '" + keyword + "'");
    if (kind == StatementKind::Load) {
        s.target = target.text;
    } else if (kind == StatementKind::Store) {
        s.sources.push_back(target.text);
    } else {
        s.target = target.text;
        expect(Tok::Colon, "':' and the variables '" + keyword + " " + quoteForMessage(target.text) + "' reads");
        do {
            if (s.sources.size() == kMaxStatementSources)
                fail(m_tok.line, m_tok.column,
                     "a statement reads at most " + std::to_string(kMaxStatementSources) + " variables");
            s.sources.push_back(expect(Tok::Ident, "a variable name").text);
        } while (accept(Tok::Comma));
    }
    endOfItem();
    m_skel.body.push_back(std::move(s));
}

void Parser::loop(std::size_t depth)
{
    if (depth >= kMaxLoopDepth)
        fail(m_tok.line, m_tok.column, "loops nest at most " + std::to_string(kMaxLoopDepth) + " deep");
    SkeletonLoop l;
    l.parallel = m_tok.text == "forall";
    l.line = m_tok.line;
    const int column = m_tok.column;
    const std::string keyword = m_tok.text;
    advance();
    const Token var = expect(Tok::Ident, "the loop variable after '" + keyword + "'");
    l.variable = var.text;
    expect(Tok::Equal, "'=' after '" + keyword + " " + quoteForMessage(var.text) + "'");
    l.lower = value("the lower bound");
    expect(Tok::Colon, "':' between the bounds (for i = 0:n)");
    const Token upperTok = m_tok;
    l.upper = value("the upper bound");
    if (l.upper <= l.lower)
        fail(upperTok.line, upperTok.column,
             "empty loop: '" + quoteForMessage(var.text) + "' runs from " + std::to_string(l.lower) + " to "
                     + std::to_string(l.upper) + ", no iterations");
    skipNewlines();
    expect(Tok::LBrace, "'{' to open the body of loop '" + quoteForMessage(var.text) + "'");
    skipNewlines();
    m_skel.loops.push_back(l);
    m_loopVars[l.variable] = l.line;
    const std::size_t before = m_skel.body.size();
    block(depth + 1);
    if (m_skel.body.size() == before)
        fail(l.line, column, "empty loop: the body of loop '" + quoteForMessage(var.text) + "' has no statements");
    expect(Tok::RBrace, "'}' to close loop '" + quoteForMessage(var.text) + "'");
    m_loopVars.erase(l.variable);
    endOfItem();
}

void Parser::block(std::size_t depth)
{
    bool sawLoop = false;
    bool sawStatement = false;
    while (m_tok.type != Tok::RBrace && m_tok.type != Tok::End) {
        const Token t = m_tok;
        if (accept(Tok::Colon)) {
            definition();
            continue;
        }
        if (t.type != Tok::Ident)
            expected("a statement (ld, st, fp, fma, xp), a loop (for, forall) or ':name = value'");
        if (t.text == "for" || t.text == "forall") {
            if (sawLoop)
                fail(t.line, t.column, "a second loop at the same level: a skeleton is one perfect loop nest");
            if (sawStatement)
                fail(t.line, t.column, "a loop after statements: statements belong in the innermost loop only");
            sawLoop = true;
            loop(depth);
            continue;
        }
        static constexpr std::pair<std::string_view, StatementKind> kKinds[] = {
                {"ld", StatementKind::Load}, {"st", StatementKind::Store}, {"fp", StatementKind::Fp},
                {"fma", StatementKind::Fma}, {"xp", StatementKind::Xp}};
        std::optional<StatementKind> kind;
        for (const auto &[word, k] : kKinds)
            if (t.text == word)
                kind = k;
        if (!kind)
            fail(t.line, t.column,
                 "expected a statement (ld, st, fp, fma, xp), a loop (for, forall) or ':name = value', got '"
                         + quoteForMessage(t.text) + "'");
        if (sawLoop)
            fail(t.line, t.column, "a statement after a loop: statements belong in the innermost loop only");
        sawStatement = true;
        statement(*kind);
    }
}

Skeleton Parser::parse()
{
    skipNewlines();
    if (!atKeyword("def"))
        expected("'def NAME ()' to start the skeleton");
    advance();
    m_skel.name = expect(Tok::Ident, "the name after 'def'").text;
    expect(Tok::LParen, "'(' after 'def " + m_skel.name + "'");
    expect(Tok::RParen, "')' (a skeleton takes no parameters)");
    skipNewlines();
    const Token open = expect(Tok::LBrace, "'{' to open the body of '" + m_skel.name + "'");
    skipNewlines();
    block(0);
    expect(Tok::RBrace, "'}' to close '" + m_skel.name + "'");
    skipNewlines();
    if (m_tok.type != Tok::End)
        expected("the end of the file after the closing '}'");
    if (m_skel.body.empty())
        fail(open.line, open.column, "the skeleton has no statements");
    long double iterations = 1;
    for (const SkeletonLoop &l : m_skel.loops)
        iterations *= static_cast<long double>(l.trips());
    if (iterations > static_cast<long double>(kMaxSkeletonCount))
        fail(m_skel.loops.front().line, 1,
             std::string("the loop nest runs too many iterations (the product of the trip counts is above ")
                     + kMaxSkeletonCountText + ")");
    return std::move(m_skel);
}

} // namespace

double Skeleton::outerIterations() const
{
    double n = 1;
    for (std::size_t i = 0; i + 1 < loops.size(); ++i)
        n *= double(loops[i].trips());
    return n;
}

Skeleton parseSkeleton(std::string_view text, const std::string &label)
{
    if (text.size() > kMaxSkeletonBytes)
        throw InputError(label + ": the skeleton is " + std::to_string(text.size()) + " bytes; at most "
                         + std::to_string(kMaxSkeletonBytes) + " are read");
    return Parser(text, label).parse();
}

} // namespace crossroof::core
