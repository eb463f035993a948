import {
  fundChange,
  fundChoiceInput,
  fundChoiceView,
  fundInput,
  fundListQuery,
  fundView,
} from '../funds.js';
import { pageOf } from '../pages.js';
import { EXAMPLE_IDS, get, patch, post, put } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/** The funds module's routes and audit words (src/contracts/manifests/manifest.ts). */
export const fundsManifest = defineManifest({
  name: 'funds',
  routes: {
    funds: {
      listOfScheme: get('/api/schemes/:id/funds', {
        query: fundListQuery,
        answer: pageOf(fundView),
      }),
      create: post('/api/schemes/:id/funds', {
        body: fundInput,
        answer: fundView,
        example: { body: { name: 'Global Equity Fund', isin: 'IE00B4L5Y983' } },
      }),
      update: patch('/api/funds/:id', {
        body: fundChange,
        answer: fundView,
        example: { body: { isin: 'IE00B4L5Y983' } },
      }),
      choices: get('/api/members/:id/fund-choices', {
        query: fundListQuery,
        answer: pageOf(fundChoiceView),
      }),
      setChoices: put('/api/members/:id/fund-choices', {
        body: fundChoiceInput,
        answer: fundChoiceView,
        example: { body: { allocations: [{ fundId: EXAMPLE_IDS.fund, percent: 100 }] } },
      }),
    },
  },
  audit: {
    records: {
      fund: { noun: 'a fund', label: 'Fund' },
      fund_choice: { noun: 'a fund choice', label: 'Fund choice' },
    },
    actions: {
      'fund.created': 'Added a fund to a scheme',
      'fund.updated': 'Changed a fund',
      'fund.listed': 'Listed funds',
      'fund_choice.changed': 'Changed a member’s fund choice',
      'fund_choice.listed': 'Listed fund choices',
    },
  },
});
