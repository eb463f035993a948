import {
  fundAssetsView,
  fundPriceList,
  fundPriceQuery,
  fundPricesInput,
  fundPricesRecorded,
  holdingsView,
  memberTransactionQuery,
  memberTransactionView,
  onDayQuery,
  switchInput,
  switchListQuery,
  switchView,
  valueHistoryQuery,
  valueHistoryView,
} from '../investments.js';
import { pageOf } from '../pages.js';
import { EXAMPLE_IDS, get, post } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/** The investments module's routes and audit words (src/contracts/manifests/manifest.ts). */
export const investmentsManifest = defineManifest({
  name: 'investments',
  routes: {
    /** A fund's unit prices (docs/decisions/0127-dc-money.md). */
    fundPrices: {
      record: post('/api/funds/:id/prices', {
        body: fundPricesInput,
        answer: fundPricesRecorded,
        example: {
          body: {
            prices: [
              { on: '2026-01-02', price: '1.000000' },
              { on: '2026-01-05', price: '1.012345' },
            ],
          },
        },
      }),
      list: get('/api/funds/:id/prices', {
        query: fundPriceQuery,
        answer: fundPriceList,
        example: { query: { from: '2026-01-01', to: '2026-01-31' } },
      }),
      /** A CSV of the scheme's funds' prices (`Fund`, `Date`, `Price`), all rows or none. */
      import: post('/api/schemes/:id/fund-prices/import', { answer: fundPricesRecorded }),
    },
    /** What a member holds and every movement of their units. */
    holdings: {
      ofMember: get('/api/members/:id/holdings', {
        query: onDayQuery,
        answer: holdingsView,
        example: { query: { on: '2026-01-31' } },
      }),
      valueHistory: get('/api/members/:id/value-history', {
        query: valueHistoryQuery,
        answer: valueHistoryView,
        example: { query: { from: '2025-01-01' } },
      }),
      transactions: get('/api/members/:id/transactions', {
        query: memberTransactionQuery,
        answer: pageOf(memberTransactionView),
      }),
      /** The trustees' view of a scheme's funds. */
      fundAssets: get('/api/schemes/:id/fund-assets', {
        query: onDayQuery,
        answer: fundAssetsView,
        example: { query: { on: '2026-01-31' } },
      }),
    },
    /** Moving what a member holds into other funds. */
    switches: {
      request: post('/api/members/:id/switches', {
        body: switchInput,
        answer: switchView,
        example: { body: { to: [{ fundId: EXAMPLE_IDS.fund, percent: 100 }] } },
      }),
      listOfMember: get('/api/members/:id/switches', {
        query: switchListQuery,
        answer: pageOf(switchView),
      }),
    },
  },
  audit: {
    records: {
      fund_price: { noun: 'a fund’s unit price', label: 'Fund price' },
      fund_switch: { noun: 'a fund switch', label: 'Fund switch' },
      member_holdings: { noun: 'a member’s holdings', label: 'Holdings' },
      member_transaction: { noun: 'a movement of a member’s units', label: 'Unit movement' },
      fund_assets: { noun: 'a scheme’s fund assets', label: 'Fund assets' },
    },
    actions: {
      'fund_price.recorded': 'Recorded a fund’s unit prices',
      'fund_price.corrected': 'Corrected a fund’s unit price, replaying what it had been used in',
      'fund_price.imported': 'Imported a file of a scheme’s fund prices',
      'fund_price.listed': 'Read a fund’s unit prices',
      'fund_switch.requested': 'Asked to switch a member’s funds',
      'fund_switch.listed': 'Listed a member’s fund switches',
      'member_holdings.viewed': 'Viewed a member’s holdings',
      'member_transaction.listed': 'Listed the movements of a member’s units',
      'fund_assets.viewed': 'Viewed the assets of a scheme’s funds',
      'scheme.ledger_settled':
        'Invested money, carried out switches and took charges for a scheme’s members',
    },
  },
});
