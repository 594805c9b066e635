import { describe, expect, it } from '@jest/globals';
import { NamedStatements } from './named-statements.js';

describe('NamedStatements', () => {
  it('names a text by its content: the same text the same name, another text another', () => {
    const statements = new NamedStatements();
    const a = statements.nameOf('SELECT 1 WHERE team_id = $1');
    expect(a).toMatch(/^pp0_[A-Za-z0-9_-]{22}$/);
    expect(statements.nameOf('SELECT 1 WHERE team_id = $1')).toBe(a);
    expect(new NamedStatements().nameOf('SELECT 1 WHERE team_id = $1')).toBe(a);
    expect(statements.nameOf('SELECT 2 WHERE team_id = $1')).not.toBe(a);
  });

  it('names at most `limit` texts; the rest run unnamed, the named keep their names', () => {
    const statements = new NamedStatements(2);
    const first = statements.nameOf('a');
    expect(statements.nameOf('b')).toBeDefined();
    expect(statements.nameOf('c')).toBeUndefined();
    expect(statements.nameOf('a')).toBe(first);
  });

  it('gives every text a new name after starting over, and counts the limit afresh', () => {
    const statements = new NamedStatements(1);
    const before = statements.nameOf('a');
    expect(statements.nameOf('b')).toBeUndefined();
    statements.startOver();
    const after = statements.nameOf('b');
    expect(after).toMatch(/^pp1_/);
    expect(statements.nameOf('a')).toBeUndefined();
    expect(before).toMatch(/^pp0_/);
  });
});
