import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { expectError, expectFieldError, idsOf } from './support/assertions.js';
import { text } from './support/inputs.js';
import {
  bodySchemaOf,
  countRows,
  EVERY_RESOURCE,
  listParametersOf,
  newBody,
  RESOURCES_UNDER_TEST,
  type RecordBody,
  type ResourceUnderTest,
} from './support/resources.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';

// CONTRACT "External references", asserted once per resource of the registration list (as the generic contract
// is, in contract.e2e-spec.ts): `externalRef` on POST and PUT (optional, nullable, ≤ 100 after trimming, empty →
// null), on every record, unique per team and resource (409 naming it, nothing changed), and the lists' exact,
// case-sensitive `externalRef` filter. Nothing here names a resource: a generated one is under it too.

describe.each(RESOURCES_UNDER_TEST)('$path: externalRef', (resource) => {
  const { api, path, table } = resource;
  /** The record in words, as the 409 names it: `work order`. */
  const record = resource.notFound.replace(/ not found$/, '').toLowerCase();
  const duplicate = (ref: string): string => `externalRef "${ref}" is already used by another ${record} of this team`;
  /** Another resource: the same ref is free there (EVERY_RESOURCE holds it even when CONTRACT_RESOURCES narrows). */
  const other = EVERY_RESOURCE.find((candidate) => candidate.path !== path) as ResourceUnderTest;

  let sut: TestApp;
  let team: Team;
  let otherTeam: Team;
  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam('Reference team');
    otherTeam = await sut.createTeam('Other team');
  });
  afterAll(() => sut.close());

  const bodyWith = async (externalRef: unknown, as: Team = team): Promise<Record<string, unknown>> => ({
    ...(await newBody(sut, as, resource)),
    externalRef,
  });
  const createWith = async (externalRef: unknown, as: Team = team): Promise<RecordBody> =>
    api.create(sut, as, await bodyWith(externalRef, as));
  const stored = async (id: string): Promise<unknown> =>
    (await sut.sql<{ ref: unknown }>(`SELECT external_ref AS ref FROM ${table} WHERE id = $1`, [id]))[0].ref;
  const listed = (query: Record<string, string>, as: Team = team) => api.list(sut, as, { pageSize: 50, ...query });

  it('is documented on the bodies, the record and the list', () => {
    for (const operation of ['create', 'update'] as const) {
      const property = bodySchemaOf(sut, resource, operation).properties?.externalRef;
      expect({ operation, property }).toEqual({
        operation,
        property: expect.objectContaining({ type: 'string', nullable: true, maxLength: 100 }),
      });
    }
    expect(listParametersOf(sut, resource)).toContain('externalRef');
  });

  describe('on POST and PUT', () => {
    it('is null on a record created without it, on GET and in the list', async () => {
      const created = await api.create(sut, team, await newBody(sut, team, resource));
      expect(created.externalRef).toBeNull();
      expect((await api.get(sut, team, created.id)).body.data.externalRef).toBeNull();
      const inList = (await listed({})).body.data as RecordBody[];
      expect(inList.find((candidate) => candidate.id === created.id)).toHaveProperty('externalRef', null);
    });

    it('stores it trimmed, and empty, blank or null as null', async () => {
      const created = await createWith('  \tPOST-Trim-1 ');
      expect(created.externalRef).toBe('POST-Trim-1');
      expect(await stored(created.id)).toBe('POST-Trim-1');
      expect((await api.get(sut, team, created.id)).body.data.externalRef).toBe('POST-Trim-1');
      for (const empty of ['', '   ', null]) {
        const blank = await createWith(empty);
        expect({ empty, ref: blank.externalRef }).toEqual({ empty, ref: null });
        expect(await stored(blank.id)).toBeNull();
      }
    });

    it('accepts 100 characters after trimming and refuses 101 or a non-string, creating nothing', async () => {
      const atLimit = await createWith(`  ${text(100, 'a')}  `);
      expect(atLimit.externalRef).toBe(text(100, 'a'));
      const before = await countRows(sut, resource, team.teamId);
      expect(expectFieldError(await api.post(sut, team, await bodyWith(text(101, 'b'))), 'externalRef')).toBe(
        'externalRef must be shorter than or equal to 100 characters',
      );
      for (const wrong of [42, true, ['x'], { id: 'x' }]) {
        expect(expectFieldError(await api.post(sut, team, await bodyWith(wrong)), 'externalRef')).toBe(
          'externalRef must be a string',
        );
      }
      expect(await countRows(sut, resource, team.teamId)).toBe(before);
    });

    it('is set, changed, kept when omitted and cleared with null or "" by PUT', async () => {
      const created = await api.create(sut, team, await newBody(sut, team, resource));
      const set = await api.put(sut, team, created.id, { externalRef: ' PUT-1 ' });
      expect(set.status).toBe(200);
      expect(set.body.data.externalRef).toBe('PUT-1');
      const changed = await api.put(sut, team, created.id, { externalRef: 'PUT-2' });
      expect(changed.body.data.externalRef).toBe('PUT-2');
      const omitted = await api.put(sut, team, created.id, {});
      expect(omitted.body.data.externalRef).toBe('PUT-2');
      expect(await stored(created.id)).toBe('PUT-2');
      for (const clear of [null, '', '  ']) {
        await api.put(sut, team, created.id, { externalRef: 'PUT-3' });
        const cleared = await api.put(sut, team, created.id, { externalRef: clear });
        expect({ clear, status: cleared.status, ref: cleared.body.data.externalRef }).toEqual({
          clear,
          status: 200,
          ref: null,
        });
        expect(await stored(created.id)).toBeNull();
      }
      const tooLong = await api.put(sut, team, created.id, { externalRef: text(101) });
      expect(expectFieldError(tooLong, 'externalRef')).toBe(
        'externalRef must be shorter than or equal to 100 characters',
      );
      expect(await stored(created.id)).toBeNull();
    });
  });

  describe('unique per team and resource', () => {
    it('refuses a second record with the same externalRef on POST (409 naming it), creating nothing', async () => {
      await createWith('DUP-POST');
      const before = await countRows(sut, resource, team.teamId);
      for (const again of ['DUP-POST', '  DUP-POST ']) {
        expect(expectError(await api.post(sut, team, await bodyWith(again)), 409)).toBe(duplicate('DUP-POST'));
      }
      expect(await countRows(sut, resource, team.teamId)).toBe(before);
    });

    it('refuses to give a record another record’s externalRef on PUT (409), changing nothing', async () => {
      const first = await createWith('DUP-PUT');
      const second = await createWith('DUP-PUT-other');
      const refused = await api.put(sut, team, second.id, { externalRef: 'DUP-PUT' });
      expect(expectError(refused, 409)).toBe(duplicate('DUP-PUT'));
      expect((await api.get(sut, team, second.id)).body.data).toEqual(second);
      expect((await api.get(sut, team, first.id)).body.data).toEqual(first);
      // Its own value is no conflict; a value freed by another record can be taken.
      expect((await api.put(sut, team, first.id, { externalRef: 'DUP-PUT' })).status).toBe(200);
      expect((await api.put(sut, team, first.id, { externalRef: null })).status).toBe(200);
      const taken = await api.put(sut, team, second.id, { externalRef: 'DUP-PUT' });
      expect({ status: taken.status, ref: taken.body.data.externalRef }).toEqual({ status: 200, ref: 'DUP-PUT' });
    });

    it('lets any number of records have none', async () => {
      const before = await countRows(sut, resource, team.teamId);
      await createWith(null);
      await createWith('');
      expect(await countRows(sut, resource, team.teamId)).toBe(before + 2);
    });

    it('compares exactly: another case is another value', async () => {
      const upper = await createWith('CASE-1');
      const lower = await createWith('case-1');
      expect([upper.externalRef, lower.externalRef]).toEqual(['CASE-1', 'case-1']);
    });

    it('allows the same externalRef in another team and in another resource', async () => {
      const mine = await createWith('SHARED-1');
      const theirs = await createWith('SHARED-1', otherTeam);
      expect(theirs.externalRef).toBe('SHARED-1');
      const otherKind = await other.api.create(sut, team, {
        ...(await newBody(sut, team, other)),
        externalRef: 'SHARED-1',
      });
      expect(otherKind.externalRef).toBe('SHARED-1');
      expect(mine.externalRef).toBe('SHARED-1');
    });

    it('lets exactly one of two simultaneous POSTs with the same externalRef through', async () => {
      const bodies = [await bodyWith('RACE-1'), await bodyWith('RACE-1')];
      const before = await countRows(sut, resource, team.teamId);
      const answers = await Promise.all(bodies.map((body) => api.post(sut, team, body)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expect(
        expectError(
          answers.find((answer) => answer.status === 409)!,
          409,
        ),
      ).toBe(duplicate('RACE-1'));
      expect(await countRows(sut, resource, team.teamId)).toBe(before + 1);
    });
  });

  describe('the list filter', () => {
    it('finds the one record with exactly that externalRef, case-sensitively, never another team’s', async () => {
      const target = await createWith('Find-Me-7');
      await createWith('find-me-7');
      await createWith('Find-Me-70');
      await createWith('Find-Me-7', otherTeam);
      const found = await listed({ externalRef: 'Find-Me-7' });
      expect(idsOf(found)).toEqual([target.id]);
      expect(found.body.pagination).toMatchObject({ total: 1, page: 1 });
      expect(idsOf(await listed({ externalRef: '  Find-Me-7 ' }))).toEqual([target.id]);
      for (const near of ['FIND-ME-7', 'Find-Me', 'Find-Me-%', 'Find_Me_7', 'Find-Me-7 x']) {
        const none = await listed({ externalRef: near });
        expect({ near, ids: idsOf(none), total: none.body.pagination.total }).toEqual({ near, ids: [], total: 0 });
      }
      const theirs = await listed({ externalRef: 'Find-Me-7' }, otherTeam);
      expect(idsOf(theirs)).toHaveLength(1);
      expect(idsOf(theirs)).not.toContain(target.id);
    });

    it('combines with the other list parameters and follows a change of the value', async () => {
      const target = await createWith('MOVE-1');
      expect(idsOf(await listed({ externalRef: 'MOVE-1', updatedSince: target.updatedAt }))).toEqual([target.id]);
      expect(idsOf(await listed({ externalRef: 'MOVE-1', page: '2' }))).toEqual([]);
      await api.put(sut, team, target.id, { externalRef: 'MOVE-2' });
      expect(idsOf(await listed({ externalRef: 'MOVE-1' }))).toEqual([]);
      expect(idsOf(await listed({ externalRef: 'MOVE-2' }))).toEqual([target.id]);
    });

    it('refuses an externalRef given twice as not one string, not as too long', async () => {
      await createWith('TWICE-1');
      const twice = await sut
        .http()
        .get(`${path}?externalRef=TWICE-1&externalRef=TWICE-1`)
        .set(...bearer(team));
      expect(expectFieldError(twice, 'externalRef')).toBe('externalRef must be a string');
    });

    it('refuses an empty or too long externalRef', async () => {
      for (const bad of ['', '   ']) {
        expect(expectFieldError(await listed({ externalRef: bad }), 'externalRef')).toBe(
          'externalRef should not be empty',
        );
      }
      expect(expectFieldError(await listed({ externalRef: text(101) }), 'externalRef')).toBe(
        'externalRef must be shorter than or equal to 100 characters',
      );
    });
  });
});
